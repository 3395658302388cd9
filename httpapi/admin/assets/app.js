// The contentgen admin page: a hash router over views that call the API.

import { api, stream, follow, ApiError } from './api.js';
import { h, replace, sanitize, field, options, formValues } from './dom.js';
import { t, setLang, lang, langOf } from './i18n.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const toasts = document.getElementById('toasts');

// Lists the page reads once and keeps.
const cache = {};
async function cached(key, load) {
  if (!(key in cache)) cache[key] = load().catch((e) => { delete cache[key]; throw e; });
  return cache[key];
}
const postTypes = () => cached('cpts', async () => (await api('GET', '/cpts/all')).result);
const taxonomies = () => cached('tax', async () => (await api('GET', '/taxonomies/all')).result);
const languages = () => cached('langs', () => api('GET', '/languages'));
const providers = () => cached('providers', () => api('GET', '/image-providers'));
const profiles = () => cached('profiles', () => api('GET', '/variation-profiles'));
const roles = () => cached('roles', async () => (await api('GET', '/users/roles')).roles);

// toast shows a short message for a while; errors stay until clicked.
function toast(message, kind = 'info') {
  const el = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : null }, message);
  el.addEventListener('click', () => el.remove());
  while (toasts.children.length >= 3) toasts.firstElementChild.remove();
  toasts.append(el);
  if (kind !== 'error') setTimeout(() => el.remove(), 5000);
}

function showError(e) {
  if (e?.name === 'AbortError') return;
  if (e instanceof ApiError && e.status === 401) return;
  toast(e?.message || String(e), 'error');
}

// run disables a button while an action runs and reports its outcome.
async function run(button, action) {
  if (button) button.disabled = true;
  try {
    const res = await action();
    if (res?.message) toast(res.message, 'success');
    return res;
  } catch (e) {
    showError(e);
    return null;
  } finally {
    if (button) button.disabled = false;
  }
}

// confirmDialog asks a question in a modal dialog and resolves to true
// when it is confirmed; dismissLabel names the other choice (Cancel).
function confirmDialog(question, confirmLabel, dismissLabel) {
  return new Promise((resolve) => {
    const dlg = h('dialog', { class: 'confirm', 'aria-labelledby': 'confirm-q' },
      h('form', { method: 'dialog' },
        h('p', { id: 'confirm-q' }, question),
        h('div', { class: 'row end' },
          h('button', { value: 'cancel', type: 'submit', autofocus: true }, dismissLabel || t('cancel')),
          h('button', { value: 'ok', type: 'submit', class: 'danger', id: 'confirm-ok' }, confirmLabel || t('confirm')))));
    dlg.addEventListener('close', () => {
      resolve(dlg.returnValue === 'ok');
      dlg.remove();
    });
    document.body.append(dlg);
    dlg.showModal();
  });
}

const intlLocale = () => (lang() === 'de' ? 'de-DE' : 'en-US');
const num = (n) => new Intl.NumberFormat(intlLocale()).format(n ?? 0);
// tn is the text of key for the count n: key_one for one, key otherwise.
const tn = (key, n) => t(n === 1 ? `${key}_one` : key, { n: num(n) });
const money = (amount, currency) => new Intl.NumberFormat(intlLocale(), { style: 'currency', currency: currency || 'USD' }).format(amount ?? 0);

function pager(page, pages, go) {
  if (pages <= 1) return null;
  return h('nav', { class: 'pager', 'aria-label': t('pages') },
    h('button', { type: 'button', disabled: page <= 1, onclick: () => go(page - 1) }, t('prev')),
    h('span', { class: 'muted' }, t('pageOf', { page, pages })),
    h('button', { type: 'button', disabled: page >= pages, onclick: () => go(page + 1) }, t('next')));
}

function avatar(url, name) {
  if (url) return h('img', { class: 'avatar', src: url, alt: '', width: 40, height: 40, loading: 'lazy' });
  const initials = String(name || '?').split(/\s+/).map((w) => w[0] || '').join('').slice(0, 2).toUpperCase();
  return h('span', { class: 'avatar avatar-initials', 'aria-hidden': 'true' }, initials);
}

function tabs(items, current, hrefOf) {
  return h('div', { class: 'tabs', role: 'navigation', 'aria-label': t('sections') },
    items.map(([key, label]) => h('a', { href: hrefOf(key), class: 'tab', 'aria-current': key === current ? 'page' : null }, label)));
}

// ---------------------------------------------------------------- views

async function dashboard() {
  const [stats, saved, types] = await Promise.all([
    api('GET', '/history/stats'), api('GET', '/time-saved'), postTypes()]);
  const s = stats.stats;
  const ts = saved.time_savings;
  const kinds = ['post', 'term', 'user', 'comment', 'media'];
  const maxDay = Math.max(1, ...s.recent_activity.map((d) => Number(d.count)));
  return [
    h('h1', {}, t('dashboard')),
    h('section', { class: 'cards', 'aria-label': t('summary') },
      h('div', { class: 'card' }, h('div', { class: 'big', id: 'stat-total' }, num(s.total)), h('div', {}, t('generatedItems'))),
      h('div', { class: 'card' }, h('div', { class: 'big' }, ts.total.formatted_short), h('div', {}, t('timeSaved')),
        h('small', { class: 'muted' }, t('workDays', { n: num(ts.work_days_equivalent) }))),
      h('div', { class: 'card' }, h('div', { class: 'big' }, money(ts.money_saved.amount, ts.money_saved.currency)), h('div', {}, t('moneySaved')),
        h('small', { class: 'muted' }, t('atRate', { rate: money(ts.money_saved.hourly_rate, ts.money_saved.currency) })))),
    h('div', { class: 'grid2' },
      h('section', {},
        h('h2', {}, t('whatWasGenerated')),
        h('table', { class: 'table' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('type')), h('th', { scope: 'col', class: 'num' }, t('generated')), h('th', { scope: 'col', class: 'num' }, t('stillExisting')))),
          h('tbody', {}, kinds.map((k) => h('tr', {}, h('th', { scope: 'row' }, t(`kind_${k}`)), h('td', { class: 'num' }, num(s.by_type[k])), h('td', { class: 'num' }, num(s.existing?.[k]))))))),
      h('section', {},
        h('h2', {}, t('whatExists')),
        h('table', { class: 'table' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('postType')), h('th', { scope: 'col', class: 'num' }, t('published')), h('th', { scope: 'col', class: 'num' }, t('otherStatuses')))),
          h('tbody', {}, types.map((pt) => h('tr', {},
            h('th', { scope: 'row' }, h('a', { href: `#/browse/posts?post_type=${encodeURIComponent(pt.name)}` }, pt.label)),
            h('td', { class: 'num' }, num(pt.count?.publish)),
            h('td', { class: 'num' }, num(Object.entries(pt.count || {}).filter(([k]) => k !== 'publish' && k !== 'trash').reduce((a, [, v]) => a + v, 0))))))))),
    h('div', { class: 'grid2' },
      h('section', {},
        h('h2', {}, t('bySubtype')),
        s.by_subtype.length === 0 ? h('p', { class: 'muted' }, t('nothingYet')) :
          h('table', { class: 'table' },
            h('tbody', {}, s.by_subtype.map((r) => h('tr', {}, h('td', {}, t(`kind_${r.content_type}`)), h('td', {}, r.content_subtype), h('td', { class: 'num' }, num(Number(r.count)))))))),
      h('section', {},
        h('h2', {}, t('recentActivity')),
        s.recent_activity.length === 0 ? h('p', { class: 'muted' }, t('nothingYet')) :
          h('ul', { class: 'bars' }, s.recent_activity.map((d) => h('li', {},
            h('span', { class: 'bar-label' }, d.date),
            h('meter', { min: 0, max: maxDay, value: Number(d.count), 'aria-label': d.date }),
            h('span', { class: 'num' }, num(Number(d.count)))))))),
    h('p', {}, h('a', { class: 'button primary', href: '#/generate/posts' }, t('generateContent'))),
  ];
}

// ---- generation

const statuses = ['publish', 'draft', 'pending', 'private', 'future', 'random'];

async function generateView(kind) {
  const body = h('div', {});
  const views = { posts: postsForm, terms: termsForm, users: usersForm, comments: commentsForm };
  replace(body, await (views[kind] || postsForm)());
  return [
    h('h1', {}, t('generate')),
    tabs([['posts', t('posts')], ['terms', t('terms')], ['users', t('users')], ['comments', t('comments')]], kind in views ? kind : 'posts', (k) => `#/generate/${k}`),
    body,
  ];
}

function number(name, value, min, max, extra = {}) {
  return h('input', { type: 'number', name, value, min, max, step: extra.step || 1, inputmode: 'numeric', required: extra.required });
}

function checkbox(name, checked) {
  return h('input', { type: 'checkbox', name, checked });
}

function providerSelect(name, prov, selected) {
  return h('select', { name }, options(Object.entries(prov.providers).map(([k, p]) => [k, p.name]), selected));
}

// postsOptions builds the options of posts that the generate form and
// the run form share. countFields(general), given the general settings,
// builds the fields that go beside the post type; withDelete adds
// the deletion before generating, which a run refuses. read(form) returns
// the request body of the options, or null after reporting a field that
// is not valid.
async function postsOptions(countFields, { withDelete, idPrefix }) {
  const [types, taxes, langs, prov, prof, settings] = await Promise.all([postTypes(), taxonomies(), languages(), providers(), profiles(), api('GET', '/settings')]);
  const general = settings.settings.general;
  const typeSel = h('select', { name: 'post_type', id: `${idPrefix}-post-type` }, options(types.map((p) => [p.name, p.label]), 'post'));
  const tmplSel = h('select', { name: 'template_id', id: `${idPrefix}-template` });
  const taxBox = h('div', { class: 'stack' });
  const categorySel = h('select', { name: 'image_category' }, h('option', { value: '' }, t('any')), options(Object.entries(prov.categories)));

  async function typeChanged() {
    const pt = types.find((p) => p.name === typeSel.value);
    const list = await api('GET', '/templates', { query: { post_type: typeSel.value } });
    const def = list.templates.find((x) => x.is_default);
    replace(tmplSel, h('option', { value: '' }, t('noTemplate')), options(list.templates.map((x) => [x.id, x.name + (x.is_default ? ` (${t('default')})` : '')]),
      general.auto_select_default_template && def ? def.id : ''));
    const own = taxes.filter((x) => (pt?.taxonomies || []).includes(x.name));
    replace(taxBox, own.length === 0 ? h('p', { class: 'muted' }, t('noTaxonomies')) : own.map((x) => h('fieldset', { class: 'inline', dataset: { taxonomy: x.name } },
      h('legend', {}, x.label),
      field(t('mode'), h('select', { 'data-k': 'mode' }, options([['', t('templateOrAuto')], ['create', t('mode_create')], ['choose', t('mode_choose')], ['none', t('mode_none')]]))),
      field(t('min'), h('input', { type: 'number', 'data-k': 'count_min', min: 0, max: 50 })),
      field(t('max'), h('input', { type: 'number', 'data-k': 'count_max', min: 0, max: 50 })),
      field(t('useExisting'), h('input', { type: 'checkbox', 'data-k': 'use_existing', checked: true })))));
  }
  typeSel.addEventListener('change', () => typeChanged().catch(showError));
  await typeChanged();

  const nodes = [
    h('div', { class: 'grid3' },
      field(t('postType'), typeSel),
      countFields(general),
      field(t('status'), h('select', { name: 'post_status' }, options(statuses.map((s) => [s, t(`status_${s}`)]), 'publish'))),
      field(t('template'), tmplSel),
      field(t('locale'), h('select', { name: 'locale' }, h('option', { value: '' }, t('defaultLocale')), options(langs.languages.map((l) => [l.code, l.native_name])))),
      field(t('seed'), h('input', { type: 'number', name: 'seed', min: 0 }), t('seedHint'))),
    h('fieldset', {}, h('legend', {}, t('images')),
      h('div', { class: 'grid3' },
        field(t('setFeaturedImage'), checkbox('set_featured_image', true)),
        field(t('downloadImages'), checkbox('download_images', true), t('downloadImagesHint')),
        field(t('imageProvider'), providerSelect('image_provider', prov, general.default_image_provider || prov.default)),
        field(t('imageCategory'), categorySel),
        field(t('width'), number('image_width', 1200, 100, 4000)),
        field(t('height'), number('image_height', 800, 100, 4000)))),
    h('fieldset', {}, h('legend', {}, t('taxonomies')),
      field(t('autoTaxonomies'), checkbox('auto_taxonomies', true)),
      taxBox),
    h('fieldset', {}, h('legend', {}, t('comments')),
      h('div', { class: 'grid3' },
        field(t('autoComments'), checkbox('auto_comments', false)),
        field(t('commentsMin'), number('comments_per_post_min', 0, 0, 100)),
        field(t('commentsMax'), number('comments_per_post_max', 10, 0, 100)),
        field(t('threading'), checkbox('enable_comment_threading', true)),
        field(t('replyProbability'), number('comment_reply_probability', 40, 0, 100)))),
    h('fieldset', {}, h('legend', {}, t('variation')),
      h('div', { class: 'grid3' },
        field(t('enableVariation'), checkbox('enable_variation', true)),
        field(t('variationProfile'), h('select', { name: 'variation_profile' }, options(Object.entries(prof.profiles).map(([k, p]) => [k, p.name]), prof.default))),
        field(t('customFields'), checkbox('populate_custom_fields', true)),
        field(t('dateFrom'), h('input', { type: 'date', name: 'date_from' })),
        field(t('dateTo'), h('input', { type: 'date', name: 'date_to' })))),
    h('details', {}, h('summary', {}, t('advancedJSON')),
      h('div', { class: 'grid2' },
        field('field_config', h('textarea', { class: 'code json', rows: 5, spellcheck: 'false', 'data-json': 'field_config', oninput: (e) => e.target.setCustomValidity('') }), t('fieldConfigHint')),
        field('related_cpt_options', h('textarea', { class: 'code json', rows: 5, spellcheck: 'false', 'data-json': 'related_cpt_options', oninput: (e) => e.target.setCustomValidity('') }), t('relatedHint')))),
    withDelete ? h('details', {}, h('summary', {}, t('beforeGenerating')),
      h('div', { class: 'grid3' },
        field(t('deleteExisting'), checkbox('delete_existing_before_generate', false)),
        field(t('deleteScope'), h('select', { name: 'delete_scope' }, options([['current_type', t('scope_current_type')], ['all', t('scope_all')]]))),
        field(t('relatedMedia'), checkbox('delete_related_media', false)),
        field(t('relatedTerms'), checkbox('delete_related_terms', false)),
        field(t('relatedAuthors'), checkbox('delete_related_authors', false)),
        field(t('relatedComments'), checkbox('delete_related_comments', false)))) : null,
  ];

  const read = (form) => {
    const body = formValues(form);
    if (body.template_id) body.template_id = Number(body.template_id);
    if (body.seed !== undefined) body.seed = Number(body.seed);
    const tc = {};
    for (const fs of taxBox.querySelectorAll('fieldset[data-taxonomy]')) {
      const get = (k) => fs.querySelector(`[data-k="${k}"]`);
      const mode = get('mode').value;
      if (!mode) continue;
      const s = { mode, use_existing: get('use_existing').checked };
      if (get('count_min').value !== '') s.count_min = Number(get('count_min').value);
      if (get('count_max').value !== '') s.count_max = Number(get('count_max').value);
      tc[fs.dataset.taxonomy] = s;
    }
    if (Object.keys(tc).length) body.taxonomy_config = tc;
    for (const ta of form.querySelectorAll('textarea[data-json]')) {
      if (!ta.value.trim()) continue;
      try {
        body[ta.dataset.json] = JSON.parse(ta.value);
        ta.setCustomValidity('');
      } catch {
        ta.setCustomValidity(t('invalidJSON'));
        ta.closest('details').open = true;
        ta.reportValidity();
        return null;
      }
    }
    return body;
  };
  return { nodes, read };
}

async function postsForm() {
  const opts = await postsOptions((g) => countField(g.default_post_count, 'posts'), { withDelete: true, idPrefix: 'gen' });

  const progress = h('progress', { max: 100, value: 0, id: 'gen-progress', 'aria-label': t('progress') });
  const pct = h('span', { id: 'gen-percent', class: 'num' }, '0%');
  const log = h('ol', { class: 'log', id: 'gen-log', 'aria-live': 'polite' });
  const result = h('div', { id: 'gen-result' });
  const submit = h('button', { type: 'submit', class: 'primary', id: 'gen-submit' }, t('generate'));
  const cancel = h('button', { type: 'button', id: 'gen-cancel', hidden: true }, t('cancel'));
  const status = h('div', { class: 'progress-wrap', hidden: true }, progress, pct);
  let controller = null;
  cancel.addEventListener('click', () => controller?.abort());

  const form = h('form', { class: 'stack', id: 'gen-posts-form' },
    opts.nodes,
    h('div', { class: 'row' }, submit, cancel),
    status, log, result);

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = opts.read(form);
    if (!body) return;
    const total = body.count || 1;
    replace(log);
    replace(result);
    progress.value = 0;
    pct.textContent = '0%';
    status.hidden = false;
    cancel.hidden = false;
    submit.disabled = true;
    controller = new AbortController();
    const done = { images: 0, imageTotal: 0, posts: 0, postTotal: total };
    const setPct = (p) => {
      if (p < progress.value) return; // the bar never goes back
      progress.value = p;
      pct.textContent = `${Math.round(p)}%`;
    };
    try {
      await stream('/generate/posts/stream', body, (e) => {
        if (e.type === 'complete') {
          setPct(100);
          const r = e.result;
          replace(result, h('div', { class: 'alert alert-success', role: 'status' },
            h('p', {}, r.message),
            h('p', {}, t('resultDetails', { images: r.variation_stats.with_featured_image, comments: r.auto_created.comments, authors: r.auto_created.authors, time: r.time_saved })),
            r.ids.length ? h('p', {}, h('a', { href: `#/browse/posts?post_type=${encodeURIComponent(body.post_type)}&generated=true` }, t('seeGenerated'))) : null));
          cache.cpts && delete cache.cpts;
          return;
        }
        if (e.type === 'error') {
          replace(result, h('div', { class: 'alert alert-error', role: 'alert' }, e.message));
          return;
        }
        // Progress counts the images stored and the posts created, as
        // the run's events report them ("Image 2 of 5 …", "Created post
        // 3 of 5: …").
        const img = /^Image (\d+) of (\d+)/.exec(e.message || '');
        const post = /^Created post (\d+) of (\d+)/.exec(e.message || '');
        if (img) [done.images, done.imageTotal] = [Number(img[1]), Number(img[2])];
        if (post) [done.posts, done.postTotal] = [Number(post[1]), Number(post[2])];
        if (img || post) setPct(Math.min(99, (100 * (done.images + done.posts)) / (done.imageTotal + done.postTotal)));
        log.append(h('li', { class: e.type === 'warning' ? 'warn' : '' }, e.message));
        log.scrollTop = log.scrollHeight;
      }, controller.signal);
    } catch (e) {
      if (e?.name === 'AbortError') {
        log.append(h('li', { class: 'warn' }, t('cancelled')));
      } else {
        replace(result, h('div', { class: 'alert alert-error', role: 'alert' }, e.message));
      }
    } finally {
      controller = null;
      cancel.hidden = true;
      submit.disabled = false;
    }
  });
  return form;
}

function resultBox() {
  return h('div', { class: 'result', 'aria-live': 'polite' });
}

function simpleForm(id, fields, path, prepare) {
  const out = resultBox();
  const submit = h('button', { type: 'submit', class: 'primary' }, t('generate'));
  const form = h('form', { class: 'stack', id }, h('div', { class: 'grid3' }, fields), h('div', { class: 'row' }, submit), out);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = formValues(form);
    if (prepare) prepare(body);
    const res = await run(submit, () => api('POST', path, { body }));
    if (res) replace(out, h('div', { class: 'alert alert-success' }, res.message, ' ', t('timeSavedIs', { time: res.time_saved })));
  });
  return form;
}

// countField is the count of a generate form, with its limit of 500 and
// a way to more: a run.
function countField(value, kind) {
  return field(t('count'), number('count', value || 5, 1, 500, { required: true }),
    h('a', { href: `#/runs/${kind}` }, t('moreAsRun')));
}

// termsOptions are the fields of terms that the generate form and the run
// form share, with countFields after the taxonomy; withDelete adds the
// deletion before generating, which a run refuses.
function termsOptions(taxes, countFields, withDelete) {
  return [
    field(t('taxonomy'), h('select', { name: 'taxonomy' }, options(taxes.map((x) => [x.name, x.label]), 'category'))),
    countFields,
    field(t('hierarchy'), checkbox('generate_hierarchy', false), t('hierarchyHint')),
    field(t('depth'), number('depth', 3, 1, 5)),
    field(t('breadth'), number('breadth', 3, 1, 10)),
    withDelete ? field(t('deleteExistingOfKind'), checkbox('delete_existing', false)) : null,
  ];
}

async function termsForm() {
  const [taxes, settings] = await Promise.all([taxonomies(), api('GET', '/settings')]);
  return simpleForm('gen-terms-form', termsOptions(taxes, countField(settings.settings.general.default_term_count, 'terms'), true), '/generate/terms');
}

// usersOptions are the fields of users that the generate form and the run
// form share, like termsOptions.
function usersOptions(rs, prov, countFields, withDelete) {
  const defaults = ['subscriber', 'contributor', 'author'];
  return [
    countFields,
    field(t('role'), h('select', { name: 'role' }, h('option', { value: '' }, t('randomRole')), options(rs.map((r) => [r.slug, r.name])))),
    h('fieldset', { class: 'span3' }, h('legend', {}, t('allowedRoles')),
      h('div', { class: 'row wrap' }, rs.map((r) => field(r.name, h('input', { type: 'checkbox', name: 'allowed_roles', value: r.slug, 'data-list': '1', checked: defaults.includes(r.slug) }))))),
    field(t('generateAvatars'), checkbox('generate_avatars', true)),
    field(t('avatarProvider'), providerSelect('avatar_provider', prov, 'provider_curated')),
    withDelete ? field(t('deleteExistingOfKind'), checkbox('delete_existing', false)) : null,
  ];
}

async function usersForm() {
  const [rs, prov, settings] = await Promise.all([roles(), providers(), api('GET', '/settings')]);
  return simpleForm('gen-users-form', usersOptions(rs, prov, countField(settings.settings.general.default_user_count, 'users'), true), '/generate/users');
}

async function commentsForm() {
  const [types, langs, prov] = await Promise.all([postTypes(), languages(), providers()]);
  return simpleForm('gen-comments-form', [
    field(t('postType'), h('select', { name: 'post_type' }, options(types.map((p) => [p.name, p.label]), 'post'))),
    field(t('postIDs'), h('input', { type: 'text', name: 'post_ids', inputmode: 'numeric', pattern: '[0-9, ]*' }), t('postIDsHint')),
    field(t('commentsMin'), number('comments_per_post_min', 1, 1, 100)),
    field(t('commentsMax'), number('comments_per_post_max', 15, 1, 100)),
    field(t('threading'), checkbox('enable_threading', true)),
    field(t('replyProbability'), number('reply_probability', 40, 0, 100)),
    field(t('pendingPercentage'), number('pending_percentage', 10, 0, 100)),
    field(t('anonymousPercentage'), number('anonymous_percentage', 70, 0, 100)),
    field(t('avatarPercentage'), number('avatar_percentage', 60, 0, 100)),
    field(t('avatarProvider'), providerSelect('avatar_provider', prov, 'provider_curated')),
    field(t('locale'), h('select', { name: 'locale' }, h('option', { value: '' }, t('defaultLocale')), options(langs.languages.map((l) => [l.code, l.native_name])))),
    field(t('deleteExistingOfKind'), checkbox('delete_existing', false)),
  ], '/generate/comments', (b) => {
    b.post_ids = String(b.post_ids || '').split(/[\s,]+/).filter(Boolean).map(Number);
  });
}

// ---- runs

// A run makes any number of items in batches, as durable jobs of the
// server (POST /runs). The list follows active runs by their event
// streams, at most maxStreams at once so that the page keeps connections
// for its other calls, and polls GET /runs for the rest and for runs
// started elsewhere: every pollActive ms while an active run is not
// followed, every pollIdle ms otherwise, and not while the page is hidden.
const runKinds = ['posts', 'terms', 'users'];
const maxStreams = 2;
const pollActive = 3000;
const pollIdle = 10000;
const activeRun = (r) => r.status === 'queued' || r.status === 'running';

// parseStamp reads a time of the API ("2006-01-02 15:04:05", in UTC).
function parseStamp(s) {
  if (!s) return null;
  const d = new Date(`${s.replace(' ', 'T')}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

function stampCell(s) {
  const d = parseStamp(s);
  if (!d) return h('span', { class: 'muted' }, '—');
  return h('time', { datetime: d.toISOString(), title: `${s} UTC` },
    new Intl.DateTimeFormat(intlLocale(), { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(d));
}

// runRate is the items a run made per second since it started, until it
// ended; null before it made any. The API's times are to the second, so a
// run is taken to have lasted at least one.
function runRate(r, now = Date.now()) {
  const start = parseStamp(r.started_at);
  if (!start || !r.done) return null;
  const end = parseStamp(r.ended_at)?.getTime() ?? now;
  return r.done / Math.max(1, (end - start.getTime()) / 1000);
}

// runOptions builds the options of a run of kind: its count (without an
// upper limit) and batch size, and the options of the generate form of
// the kind but the deletion before generating, which a run refuses.
async function runOptions(kind) {
  const counts = [
    field(t('count'), number('count', 1000, 1, null, { required: true }), t('noUpperLimit')),
    field(t('batchSize'), number('batch_size', '', 1, 500), t('batchSizeHint')),
  ];
  if (kind === 'terms') {
    const taxes = await taxonomies();
    return { nodes: h('div', { class: 'grid3' }, termsOptions(taxes, counts, false)), read: formValues };
  }
  if (kind === 'users') {
    const [rs, prov] = await Promise.all([roles(), providers()]);
    return { nodes: h('div', { class: 'grid3' }, usersOptions(rs, prov, counts, false)), read: formValues };
  }
  return postsOptions(() => counts, { withDelete: false, idPrefix: 'run' });
}

async function runsView(kind) {
  const signal = viewSignal();
  const heading = h('h1', {}, t('runs'));
  let list;
  try {
    list = (await api('GET', '/runs', { signal })).runs;
  } catch (e) {
    if (e instanceof ApiError && e.code === 'not_configured') {
      // The server's own message says why it has no runs, when it knows.
      const why = e.message && e.message !== 'runs are not set up on this server' ? e.message : '';
      return [heading, h('div', { class: 'alert alert-info', id: 'runs-unavailable', role: 'status' },
        h('p', {}, t('runsUnavailable')),
        why ? h('p', { id: 'runs-unavailable-why' }, t('serverSays', { message: why })) : null,
        h('p', {}, h('a', { href: '#/generate/posts' }, t('runsUnavailableLink'))))];
    }
    throw e;
  }
  const k = runKinds.includes(kind) ? kind : 'posts';
  const opts = await runOptions(k);

  const runs = new Map(); // id → the run as last seen
  const rows = new Map(); // id → its row
  const streams = new Map(); // id → the AbortController of its stream
  const followedAt = new Map(); // id → when its stream last started
  // The columns: their headings, which label the cells on a phone too.
  const columns = [t('status'), t('type'), t('progress'), t('rate'), t('errors'), t('started'), t('ended'), t('workers'), t('actions')];
  const cellClass = (i) => (i === 2 ? 'run-progress' : i === 3 || i === 4 ? 'num' : null);
  const tbody = h('tbody', {});
  const table = h('div', { class: 'table-wrap' }, h('table', { class: 'table runs', id: 'runs-table' },
    h('thead', {}, h('tr', {}, columns.map((x, i) => h('th', { scope: 'col', class: cellClass(i) }, x)))),
    tbody));
  const empty = h('p', { class: 'muted', id: 'runs-empty' }, t('noRuns'));
  const note = h('p', { class: 'small run-error', id: 'runs-note', role: 'status', hidden: true });

  const cancelRun = async (btn, r) => {
    if (!(await confirmDialog(t('confirmCancelRun'), t('cancelRun'), t('keepRunning')))) return;
    const res = await run(btn, () => api('DELETE', `/runs/${encodeURIComponent(r.id)}`));
    if (res) upsert(res.run);
  };
  // resumeRun queues again what a cancelled or failed run has not done.
  const resumeRun = async (btn, r) => {
    const res = await run(btn, () => api('POST', `/runs/${encodeURIComponent(r.id)}/resume`));
    if (!res) return;
    upsert(res.run);
    followActive();
  };

  // fill shows r in its row; the actions are rebuilt only when the
  // status changes, so that a focused button stays.
  const fill = (tr, r) => {
    // Each cell holds one element, which a phone shows beside its label.
    const set = (i, ...children) => replace(tr.cells[i], h('div', {}, children));
    const pct = r.total ? Math.floor((100 * r.done) / r.total) : 0;
    set(0, h('span', { class: `run-status run-${r.status}` }, t(`run_${r.status}`)));
    set(1, t(r.kind), h('div', { class: 'muted small run-id', title: r.id }, `…${r.id.slice(-8)}`));
    set(2, h('progress', { max: r.total || 1, value: r.done, 'aria-label': t('progress') }),
      h('div', { class: 'small' }, t('doneOf', { done: num(r.done), total: num(r.total) }), h('span', { class: 'muted' }, ` · ${pct}%`)),
      r.last_error ? h('div', { class: 'small run-error' }, t('lastError', { message: r.last_error })) : null,
      r.warnings.length ? h('details', { class: 'run-warnings small' }, h('summary', {}, t('warningsCount', { n: r.warnings.length })),
        h('ul', {}, r.warnings.map((w) => h('li', {}, w)))) : null);
    const rate = runRate(r);
    set(3, rate === null ? h('span', { class: 'muted' }, '—')
      : t('perSecond', { n: new Intl.NumberFormat(intlLocale(), { maximumFractionDigits: rate < 10 ? 1 : 0 }).format(rate) }));
    set(4, r.errors ? h('span', { class: 'run-error' }, num(r.errors)) : num(0));
    set(5, stampCell(r.started_at));
    set(6, stampCell(r.ended_at));
    set(7, r.workers.length === 0 ? h('span', { class: 'muted' }, '—') : h('ul', { class: 'workers' }, r.workers.map((w) => h('li', {},
      h('div', { class: 'worker-name' }, w.name), h('div', { class: 'muted' }, `${tn('nItems', w.items)}, ${tn('nBatches', w.batches)}`)))));
    if (tr.dataset.status !== r.status) {
      const resumable = r.status === 'cancelled' || r.status === 'failed';
      replace(tr.cells[8], activeRun(r) ? h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'small-btn danger run-cancel', onclick: (ev) => cancelRun(ev.currentTarget, runs.get(r.id)) }, t('cancelRun')))
        : resumable ? h('div', { class: 'actions' },
          h('button', { type: 'button', class: 'small-btn run-resume', onclick: (ev) => resumeRun(ev.currentTarget, runs.get(r.id)) }, t('resumeRun')))
          : null);
    }
    tr.dataset.status = r.status;
    tr.dataset.done = String(r.done);
  };

  // upsert shows r, in a new row at the top when it is new.
  const upsert = (r) => {
    runs.set(r.id, r);
    let tr = rows.get(r.id);
    if (!tr) {
      tr = h('tr', { dataset: { id: r.id } }, columns.map((label, i) => h('td', { class: cellClass(i), 'data-label': label })));
      rows.set(r.id, tr);
      tbody.prepend(tr);
    }
    fill(tr, r);
    table.hidden = false;
    empty.hidden = true;
  };

  // sync shows a list of GET /runs, newest first.
  const sync = (list) => {
    const ids = new Set(list.map((r) => r.id));
    for (const [id, tr] of rows) {
      if (ids.has(id)) continue;
      tr.remove();
      rows.delete(id);
      runs.delete(id);
      streams.get(id)?.abort();
    }
    for (const r of [...list].reverse()) upsert(r);
    table.hidden = rows.size === 0;
    empty.hidden = rows.size > 0;
  };

  let refreshing = null;
  const refresh = () => {
    refreshing ||= api('GET', '/runs', { signal }).then((res) => {
      note.hidden = true;
      sync(res.runs);
      followActive();
    }).catch((e) => {
      if (e?.name === 'AbortError' || (e instanceof ApiError && e.status === 401)) return;
      replace(note, t('refreshFailed', { message: e.message }));
      note.hidden = false;
    }).finally(() => {
      refreshing = null;
    });
    return refreshing;
  };

  // followRun reads the events of run id until it ends; then a stream is
  // free for the next active run.
  const followRun = async (id) => {
    const ctl = new AbortController();
    const stop = () => ctl.abort();
    signal.addEventListener('abort', stop, { once: true });
    streams.set(id, ctl);
    followedAt.set(id, Date.now());
    let complete = false;
    try {
      await follow(`/runs/${encodeURIComponent(id)}/events`, (e) => {
        if (e.run && rows.has(id)) upsert(e.run);
        if (e.type === 'complete') complete = true;
      }, ctl.signal);
    } catch {
      // The poll shows the run until its stream is opened again.
    } finally {
      streams.delete(id);
      signal.removeEventListener('abort', stop);
    }
    if (complete && !signal.aborted) refresh();
  };

  // followActive opens streams for the active runs not followed, newest
  // first; a stream that ended without the run's end is opened again at
  // the earliest after pollActive.
  const followActive = () => {
    for (const r of runs.values()) {
      if (streams.size >= maxStreams) break;
      if (!activeRun(r) || streams.has(r.id) || Date.now() - (followedAt.get(r.id) || 0) < pollActive) continue;
      followRun(r.id);
    }
  };

  let timer = 0;
  const schedule = () => {
    if (signal.aborted) return;
    const unfollowed = [...runs.values()].some((r) => activeRun(r) && !streams.has(r.id));
    timer = setTimeout(async () => {
      if (!document.hidden) await refresh();
      schedule();
    }, unfollowed ? pollActive : pollIdle);
  };
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });

  const submit = h('button', { type: 'submit', class: 'primary', id: 'run-submit' }, t('startRunButton'));
  const form = h('form', { class: 'stack', id: 'run-form' }, opts.nodes, h('div', { class: 'row' }, submit));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = opts.read(form);
    if (!body) return;
    body.kind = k;
    const res = await run(submit, () => api('POST', '/runs', { body }));
    if (!res || signal.aborted) return;
    toast(t('runStarted', { n: num(res.run.total), kind: t(res.run.kind) }), 'success');
    upsert(res.run);
    followActive();
  });

  sync(list);
  followActive();
  schedule();
  return [
    heading,
    h('p', { class: 'muted' }, t('runsIntro')),
    empty, table, note,
    h('section', { class: 'panel run-start' },
      h('h2', {}, t('newRun')),
      tabs(runKinds.map((x) => [x, t(x)]), k, (x) => `#/runs/${x}`),
      form),
  ];
}

// ---- browsing

async function browseView(kind, params) {
  const views = { posts: browsePosts, users: browseUsers, terms: browseTerms, media: browseMedia };
  const k = kind in views ? kind : 'posts';
  return [
    h('h1', {}, t('browse')),
    tabs([['posts', t('posts')], ['users', t('users')], ['terms', t('terms')], ['media', t('media')]], k, (x) => `#/browse/${x}`),
    await views[k](params),
  ];
}

// filterForm builds a filter bar whose submit updates the hash query.
function filterForm(kind, params, controls) {
  const form = h('form', { class: 'filters', role: 'search' }, controls, h('button', { type: 'submit' }, t('filter')));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(formValues(form))) if (v !== '' && v !== false) q.set(k, v);
    location.hash = `#/browse/${kind}?${q}`;
  });
  return form;
}

function goPage(kind, params, page) {
  const q = new URLSearchParams(params);
  q.set('page', page);
  location.hash = `#/browse/${kind}?${q}`;
}

const generatedSelect = (v) => h('select', { name: 'generated' }, options([['', t('all')], ['true', t('onlyGenerated')], ['false', t('onlyHandMade')]], v || ''));

async function browsePosts(params) {
  const types = await postTypes();
  const page = Number(params.get('page') || 1);
  const q = { post_type: params.get('post_type') || '', status: params.get('status') || '', generated: params.get('generated') || '', search: params.get('search') || '', page, per_page: 20 };
  const res = await api('GET', '/content/posts', { query: q });
  return h('div', {},
    filterForm('posts', params, [
      field(t('postType'), h('select', { name: 'post_type' }, h('option', { value: '' }, t('all')), options(types.map((p) => [p.name, p.label]), q.post_type))),
      field(t('status'), h('select', { name: 'status' }, h('option', { value: '' }, t('all')), options(statuses.filter((s) => s !== 'random').map((s) => [s, t(`status_${s}`)]), q.status))),
      field(t('generated'), generatedSelect(q.generated)),
      field(t('search'), h('input', { type: 'search', name: 'search', value: q.search })),
    ]),
    h('p', { class: 'muted' }, t('found', { n: num(res.total) })),
    res.posts.length === 0 ? h('p', {}, t('nothingFound')) :
      h('ul', { class: 'post-list', id: 'post-list' }, res.posts.map((p) => h('li', { class: 'post-item' },
        p.featured_media ? h('img', { src: p.featured_media.url, alt: '', class: 'thumb', loading: 'lazy', width: 96, height: 64 }) : h('span', { class: 'thumb thumb-empty', 'aria-hidden': 'true' }),
        h('div', {},
          h('a', { href: `#/post/${p.id}`, class: 'post-title' }, p.title || t('untitled')),
          h('div', { class: 'muted small' }, [p.post_type, t(`status_${p.status}`), p.date, p.author?.name].filter(Boolean).join(' · '),
            p.generated ? h('span', { class: 'badge' }, t('generatedBadge')) : null))))),
    pager(page, res.pages, (n) => goPage('posts', params, n)));
}

async function browseUsers(params) {
  const page = Number(params.get('page') || 1);
  const q = { generated: params.get('generated') || '', search: params.get('search') || '', role: params.get('role') || '', page, per_page: 24 };
  const [res, rs] = await Promise.all([api('GET', '/content/users', { query: q }), roles()]);
  return h('div', {},
    filterForm('users', params, [
      field(t('role'), h('select', { name: 'role' }, h('option', { value: '' }, t('all')), options(rs.map((r) => [r.slug, r.name]), q.role))),
      field(t('generated'), generatedSelect(q.generated)),
      field(t('search'), h('input', { type: 'search', name: 'search', value: q.search })),
    ]),
    h('p', { class: 'muted' }, t('found', { n: num(res.total) })),
    h('ul', { class: 'user-grid' }, res.users.map((u) => h('li', { class: 'card user-card' },
      avatar(u.avatar_url, u.display_name),
      h('div', {}, h('strong', {}, u.display_name), h('div', { class: 'muted small' }, u.login, ' · ', u.roles.join(', ')),
        h('div', { class: 'small' }, u.email), u.generated ? h('span', { class: 'badge' }, t('generatedBadge')) : null)))),
    pager(page, res.pages, (n) => goPage('users', params, n)));
}

async function browseTerms(params) {
  const taxes = await taxonomies();
  const tax = params.get('taxonomy') || taxes[0]?.name || 'category';
  const generated = params.get('generated') || '';
  const all = [];
  for (let page = 1; page <= 20; page++) {
    const res = await api('GET', '/content/terms', { query: { taxonomy: tax, generated, per_page: 100, page } });
    all.push(...res.terms);
    if (page >= res.pages) break;
  }
  const children = new Map();
  const ids = new Set(all.map((x) => x.id));
  for (const term of all) {
    const parent = ids.has(term.parent) ? term.parent : 0;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(term);
  }
  const tree = (parent) => {
    const list = children.get(parent);
    if (!list) return null;
    return h('ul', { class: 'tree' }, list.map((x) => h('li', {},
      h('span', {}, x.name), ' ', h('span', { class: 'muted small' }, `(${x.count})`), x.is_generated ? h('span', { class: 'badge' }, t('generatedBadge')) : null,
      tree(x.id))));
  };
  return h('div', {},
    filterForm('terms', params, [
      field(t('taxonomy'), h('select', { name: 'taxonomy' }, options(taxes.map((x) => [x.name, x.label]), tax))),
      field(t('generated'), generatedSelect(generated)),
    ]),
    h('p', { class: 'muted' }, t('found', { n: num(all.length) })),
    all.length ? tree(0) : h('p', {}, t('nothingFound')));
}

async function browseMedia(params) {
  const page = Number(params.get('page') || 1);
  const q = { generated: params.get('generated') || '', search: params.get('search') || '', page, per_page: 24 };
  const res = await api('GET', '/content/media', { query: q });
  return h('div', {},
    filterForm('media', params, [
      field(t('generated'), generatedSelect(q.generated)),
      field(t('search'), h('input', { type: 'search', name: 'search', value: q.search })),
    ]),
    h('p', { class: 'muted' }, t('found', { n: num(res.total) })),
    h('ul', { class: 'media-grid' }, res.media.map((m) => h('li', {},
      h('a', { href: m.url, target: '_blank', rel: 'noopener' },
        m.mime_type.startsWith('image/') ? h('img', { src: m.thumbnail || m.url, alt: m.title, loading: 'lazy', width: 150, height: 150 }) : h('span', { class: 'file' }, m.mime_type)),
      h('div', { class: 'small' }, m.title), h('div', { class: 'muted small' }, m.width ? `${m.width}×${m.height}` : '')))),
    pager(page, res.pages, (n) => goPage('media', params, n)));
}

async function postView(id) {
  const [{ post: p }, taxes] = await Promise.all([api('GET', `/content/posts/${encodeURIComponent(id)}`), taxonomies()]);
  const taxLabel = (slug) => taxes.find((x) => x.name === slug)?.labels?.singular_name || slug;
  const byParent = new Map();
  const ids = new Set(p.comments.map((c) => c.id));
  for (const c of p.comments) {
    const parent = ids.has(c.parent) ? c.parent : 0;
    if (!byParent.has(parent)) byParent.set(parent, []);
    byParent.get(parent).push(c);
  }
  const thread = (parent) => {
    const list = byParent.get(parent);
    if (!list) return null;
    return h('ol', { class: 'comments' }, list.map((c) => h('li', { class: 'comment', id: `comment-${c.id}` },
      h('div', { class: 'comment-head' }, avatar(c.avatar_url, c.author_name), h('strong', {}, c.author_name || t('anonymous')),
        h('span', { class: 'muted small' }, c.date), c.status !== 'approved' ? h('span', { class: 'badge' }, c.status) : null),
      h('div', { class: 'comment-body' }, sanitize(c.content)),
      thread(c.id))));
  };
  const termGroups = Object.entries(p.terms).filter(([, list]) => list.length);
  return h('article', { class: 'reader', id: 'post-view' },
    h('p', {}, h('a', { href: `#/browse/posts?post_type=${encodeURIComponent(p.post_type)}` }, '← ', t('backToList'))),
    h('h1', { id: 'post-title' }, p.title || t('untitled')),
    h('div', { class: 'byline' },
      p.author ? [avatar(p.author.avatar_url, p.author.name), h('span', {}, p.author.name)] : null,
      h('span', { class: 'muted' }, [p.post_type, t(`status_${p.status}`), p.date].join(' · ')),
      p.generated ? h('span', { class: 'badge' }, t('generatedBadge')) : null),
    p.featured_media ? h('figure', { class: 'featured' }, h('img', { src: p.featured_media.url, alt: p.featured_media.alt || '' })) : null,
    p.excerpt ? h('p', { class: 'lead' }, p.excerpt) : null,
    h('div', { class: 'content', id: 'post-content' }, sanitize(p.content)),
    termGroups.length ? h('dl', { class: 'terms' }, termGroups.map(([tax, list]) => [h('dt', {}, taxLabel(tax)), h('dd', {}, list.map((x) => h('span', { class: 'chip' }, x.name)))])) : null,
    h('section', { id: 'post-comments' }, h('h2', {}, t('commentsCount', { n: p.comments.length })), thread(0) || h('p', { class: 'muted' }, t('noComments'))));
}

// ---- history

async function historyView(params) {
  const perPage = 20;
  const page = Number(params.get('page') || 1);
  const type = params.get('type') || '';
  const res = await api('GET', '/history', { query: { type, limit: perPage, offset: (page - 1) * perPage } });
  const pages = Math.max(1, Math.ceil(res.total / perPage));
  const go = (q) => {
    location.hash = `#/history?${new URLSearchParams(q)}`;
  };
  const refresh = () => route();
  const typeSel = h('select', { name: 'type', id: 'history-type' }, h('option', { value: '' }, t('all')), options(['post', 'term', 'user', 'comment', 'media'].map((k) => [k, t(`kind_${k}`)]), type));
  typeSel.addEventListener('change', () => go({ type: typeSel.value }));

  const del = async (btn, entry, withContent) => {
    if (withContent && !(await confirmDialog(t('confirmDeleteContent', { title: entry.content_title || entry.content_id }), t('deleteWithContent')))) return;
    const r = await run(btn, () => api('DELETE', `/history/${encodeURIComponent(entry.id)}`, { query: { delete_content: withContent } }));
    if (r) refresh();
  };
  const cleanup = h('button', { type: 'button', id: 'history-cleanup' }, t('cleanupOrphans'));
  cleanup.addEventListener('click', async () => {
    if (await run(cleanup, () => api('POST', '/history/cleanup'))) refresh();
  });
  const clearBtn = h('button', { type: 'button', id: 'history-clear' }, t('clearHistory'));
  clearBtn.addEventListener('click', async () => {
    if (!(await confirmDialog(t('confirmClearHistory'), t('clearHistory')))) return;
    if (await run(clearBtn, () => api('DELETE', '/history/clear'))) refresh();
  });
  const allBtn = h('button', { type: 'button', class: 'danger', id: 'cleanup-all' }, t('deleteAllGenerated'));
  allBtn.addEventListener('click', async () => {
    if (!(await confirmDialog(t('confirmCleanupAll'), t('deleteAllGenerated')))) return;
    const r = await run(allBtn, () => api('DELETE', '/cleanup/all'));
    if (r) {
      delete cache.cpts;
      refresh();
    }
  });

  return [
    h('h1', {}, t('history')),
    h('div', { class: 'row wrap toolbar' }, field(t('type'), typeSel), h('span', { class: 'spacer' }), cleanup, clearBtn, allBtn),
    h('p', { class: 'muted' }, t('found', { n: num(res.total) })),
    res.history.length === 0 ? h('p', {}, t('nothingYet')) :
      h('div', { class: 'table-wrap' }, h('table', { class: 'table', id: 'history-table' },
        h('thead', {}, h('tr', {}, [t('type'), t('title'), t('created'), t('exists'), t('actions')].map((x) => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, res.history.map((e) => h('tr', { dataset: { id: e.id } },
          h('td', {}, t(`kind_${e.content_type}`), h('div', { class: 'muted small' }, e.content_subtype)),
          h('td', {}, e.content_type === 'post' && e.content_exists ? h('a', { href: `#/post/${e.content_id}` }, e.content_title) : (e.content_title || `#${e.content_id}`),
            e.template_name ? h('div', { class: 'muted small' }, e.template_name) : null),
          h('td', { class: 'small' }, e.created_at),
          h('td', {}, e.content_exists ? t('yes') : h('span', { class: 'muted' }, t('no'))),
          h('td', {}, h('div', { class: 'actions' },
            h('button', { type: 'button', class: 'small-btn del-entry', onclick: (ev) => del(ev.currentTarget, e, false) }, t('deleteEntry')),
            e.content_exists ? h('button', { type: 'button', class: 'small-btn danger del-content', onclick: (ev) => del(ev.currentTarget, e, true) }, t('deleteWithContent')) : null))))))),
    pager(page, pages, (n) => go({ type, page: n })),
    await deletePostsForm(),
  ];
}

async function deletePostsForm() {
  const types = await postTypes();
  const out = resultBox();
  const submit = h('button', { type: 'submit', class: 'danger' }, t('deleteGeneratedPosts'));
  const form = h('form', { class: 'stack' },
    h('div', { class: 'grid3' },
      field(t('postType'), h('select', { name: 'post_type' }, options(types.map((p) => [p.name, p.label])))),
      field(t('deleteScope'), h('select', { name: 'delete_scope' }, options([['current_type', t('scope_current_type')], ['all', t('scope_all')]]))),
      field(t('relatedMedia'), checkbox('delete_related_media', true)),
      field(t('relatedTerms'), checkbox('delete_related_terms', true)),
      field(t('relatedAuthors'), checkbox('delete_related_authors', true)),
      field(t('relatedComments'), checkbox('delete_related_comments', true)),
      field(t('relatedPosts'), checkbox('delete_related_cpts', false))),
    h('div', { class: 'row' }, submit), out);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = formValues(form);
    if (!(await confirmDialog(t('confirmDeletePosts', { type: body.post_type }), t('deleteGeneratedPosts')))) return;
    const r = await run(submit, () => api('POST', '/generate/posts/delete', { body }));
    if (r) delete cache.cpts;
  });
  return h('details', { class: 'panel' }, h('summary', {}, t('deleteGeneratedPosts')), form);
}

// ---- templates

async function templatesView(params) {
  const types = await postTypes();
  const pt = params.get('post_type') || '';
  const list = await api('GET', '/templates', { query: { post_type: pt } });
  const refresh = () => route();
  const act = (btn, method, path, query) => run(btn, () => api(method, path, { query })).then((r) => r && refresh());
  const typeSel = h('select', { name: 'post_type', id: 'tmpl-type' }, h('option', { value: '' }, t('all')), options(types.map((p) => [p.name, p.label]), pt));
  typeSel.addEventListener('change', () => {
    location.hash = `#/templates?post_type=${encodeURIComponent(typeSel.value)}`;
  });
  const exportBtn = h('button', { type: 'button' }, t('export'));
  exportBtn.addEventListener('click', async () => {
    const ids = [...document.querySelectorAll('input.tmpl-pick:checked')].map((x) => x.value);
    const res = await run(exportBtn, () => api('GET', '/templates/export', { query: ids.length ? { ids } : { post_type: pt } }));
    if (!res) return;
    const blob = new Blob([JSON.stringify(res, null, 2)], { type: 'application/json' });
    const a = h('a', { href: URL.createObjectURL(blob), download: `contentgen-templates${pt ? '-' + pt : ''}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  const importInput = h('input', { type: 'file', accept: 'application/json,.json', id: 'tmpl-import' });
  importInput.addEventListener('change', async () => {
    const file = importInput.files[0];
    if (!file) return;
    try {
      const data = JSON.parse(await file.text());
      const res = await run(null, () => api('POST', '/templates/import', { body: { templates: data.templates || data } }));
      if (res) refresh();
    } catch (e) {
      showError(e);
    } finally {
      importInput.value = '';
    }
  });
  return [
    h('h1', {}, t('templates')),
    h('div', { class: 'row wrap toolbar' }, field(t('postType'), typeSel), h('span', { class: 'spacer' }),
      h('a', { class: 'button primary', href: `#/template/new${pt ? '?post_type=' + encodeURIComponent(pt) : ''}` }, t('newTemplate')),
      exportBtn, importInput, h('label', { class: 'button', for: 'tmpl-import' }, t('import'))),
    list.stale?.length ? h('p', { class: 'alert alert-info' }, t('staleTemplates', { n: list.stale.length })) : null,
    h('div', { class: 'table-wrap' }, h('table', { class: 'table', id: 'templates-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('select'))), [t('name'), t('postType'), t('default'), t('actions')].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, list.templates.map((x) => h('tr', {},
        h('td', {}, h('input', { type: 'checkbox', class: 'tmpl-pick', value: x.id, 'aria-label': x.name })),
        h('td', {}, h('a', { href: `#/template/${x.id}` }, x.name), x.is_system ? h('span', { class: 'badge' }, t('system')) : null,
          x.description ? h('div', { class: 'muted small' }, x.description) : null),
        h('td', {}, x.post_type),
        h('td', {}, x.is_default ? t('yes') : h('button', { type: 'button', class: 'small-btn', onclick: (ev) => act(ev.currentTarget, 'POST', `/templates/${x.id}/default`) }, t('makeDefault'))),
        h('td', {}, h('div', { class: 'actions' },
          h('button', { type: 'button', class: 'small-btn', onclick: (ev) => act(ev.currentTarget, 'POST', `/templates/${x.id}/duplicate`) }, t('duplicate')),
          h('button', { type: 'button', class: 'small-btn', onclick: (ev) => act(ev.currentTarget, 'POST', `/templates/${x.id}/variant`) }, t('variant')),
          h('button', {
            type: 'button', class: 'small-btn danger', onclick: async (ev) => {
              const btn = ev.currentTarget;
              if (await confirmDialog(t('confirmDeleteTemplate', { name: x.name }), t('delete'))) act(btn, 'DELETE', `/templates/${x.id}`);
            },
          }, t('delete')))))))))];
}

async function templateEditor(id, params) {
  const isNew = id === 'new';
  const types = await postTypes();
  const taxes = await taxonomies();
  let tmpl = { name: '', description: '', post_type: params.get('post_type') || types[0]?.name || 'post', is_default: false, field_config: {}, taxonomy_config: {} };
  if (!isNew) tmpl = (await api('GET', `/templates/${encodeURIComponent(id)}`)).template;
  const cfg = { field_config: structuredClone(tmpl.field_config || {}), taxonomy_config: structuredClone(tmpl.taxonomy_config || {}) };
  const fieldsBox = h('div', {});
  const taxBox = h('div', {});
  const fcText = h('textarea', { rows: 10, spellcheck: 'false', class: 'code', id: 'tmpl-fc' });
  const tcText = h('textarea', { rows: 6, spellcheck: 'false', class: 'code', id: 'tmpl-tc' });
  const syncText = () => {
    fcText.value = JSON.stringify(cfg.field_config, null, 2);
    tcText.value = JSON.stringify(cfg.taxonomy_config, null, 2);
  };
  const typeSel = h('select', { name: 'post_type', disabled: !isNew }, options(types.map((p) => [p.name, p.label]), tmpl.post_type));

  async function renderFields() {
    const pt = typeSel.value;
    let schema = null;
    try {
      schema = await api('GET', `/templates/fields/${encodeURIComponent(pt)}`);
    } catch (e) {
      showError(e);
      return;
    }
    const row = (group, f) => {
      const current = cfg.field_config[group]?.[f.name]?.mode || '';
      const sel = h('select', { 'aria-label': f.label || f.name }, h('option', { value: '' }, t('fieldDefault')), options((f.modes || []).map((m) => [m, t(`mode_${m}`)]), current));
      sel.addEventListener('change', () => {
        const g = (cfg.field_config[group] ||= {});
        if (!sel.value) delete g[f.name];
        else g[f.name] = { ...(g[f.name] || {}), mode: sel.value };
        if (Object.keys(g).length === 0) delete cfg.field_config[group];
        syncText();
      });
      return h('tr', {}, h('th', { scope: 'row' }, f.label || f.name, h('div', { class: 'muted small' }, f.name)), h('td', { class: 'small' }, f.type), h('td', {}, sel));
    };
    const custom = Object.values(schema.custom_fields || {}).flatMap((g) => g.fields || []);
    replace(fieldsBox, h('div', { class: 'table-wrap' }, h('table', { class: 'table' },
      h('thead', {}, h('tr', {}, [t('field'), t('fieldType'), t('mode')].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, Object.values(schema.core_fields || {}).map((f) => row('core_fields', f)), custom.map((f) => row('custom_fields', f))))));
    const own = taxes.filter((x) => x.post_types.includes(pt));
    replace(taxBox, own.length === 0 ? h('p', { class: 'muted' }, t('noTaxonomies')) : own.map((x) => {
      const s = cfg.taxonomy_config[x.name] || {};
      const mode = h('select', {}, h('option', { value: '' }, t('fieldDefault')), options(['create', 'choose', 'none'].map((m) => [m, t(`mode_${m}`)]), s.mode || ''));
      const min = h('input', { type: 'number', min: 0, max: 50, value: s.count_min ?? '' });
      const max = h('input', { type: 'number', min: 0, max: 50, value: s.count_max ?? '' });
      const existing = h('input', { type: 'checkbox', checked: !!s.use_existing });
      const update = () => {
        if (!mode.value) {
          delete cfg.taxonomy_config[x.name];
        } else {
          const n = { ...(cfg.taxonomy_config[x.name] || {}), mode: mode.value, use_existing: existing.checked };
          if (min.value === '') delete n.count_min; else n.count_min = Number(min.value);
          if (max.value === '') delete n.count_max; else n.count_max = Number(max.value);
          cfg.taxonomy_config[x.name] = n;
        }
        syncText();
      };
      [mode, min, max, existing].forEach((el) => el.addEventListener('change', update));
      return h('fieldset', { class: 'inline' }, h('legend', {}, x.label), field(t('mode'), mode), field(t('min'), min), field(t('max'), max), field(t('useExisting'), existing));
    }));
  }
  typeSel.addEventListener('change', () => {
    cfg.field_config = {};
    cfg.taxonomy_config = {};
    syncText();
    renderFields();
  });
  const parseInto = (ta, key) => {
    try {
      cfg[key] = ta.value.trim() ? JSON.parse(ta.value) : {};
      ta.setCustomValidity('');
      renderFields();
    } catch {
      ta.setCustomValidity(t('invalidJSON'));
      ta.reportValidity();
    }
  };
  fcText.addEventListener('change', () => parseInto(fcText, 'field_config'));
  tcText.addEventListener('change', () => parseInto(tcText, 'taxonomy_config'));
  syncText();
  await renderFields();

  const submit = h('button', { type: 'submit', class: 'primary', id: 'tmpl-save' }, t('save'));
  const form = h('form', { class: 'stack', id: 'template-form' },
    h('div', { class: 'grid3' },
      field(t('name'), h('input', { type: 'text', name: 'name', required: true, maxlength: 200, value: tmpl.name })),
      field(t('postType'), typeSel),
      field(t('isDefault'), h('input', { type: 'checkbox', name: 'is_default', checked: tmpl.is_default }))),
    field(t('description'), h('textarea', { name: 'description', rows: 2 }, tmpl.description || '')),
    h('fieldset', {}, h('legend', {}, t('fields')), fieldsBox),
    h('fieldset', {}, h('legend', {}, t('taxonomies')), taxBox),
    h('details', {}, h('summary', {}, t('advancedJSON')), field('field_config', fcText), field('taxonomy_config', tcText)),
    h('div', { class: 'row' }, submit, h('a', { href: '#/templates', class: 'button' }, t('cancel'))));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (!fcText.checkValidity() || !tcText.checkValidity()) return;
    const v = formValues(form);
    const body = { name: v.name, description: v.description || '', is_default: v.is_default, field_config: cfg.field_config, taxonomy_config: cfg.taxonomy_config };
    if (isNew) body.post_type = typeSel.value;
    const r = await run(submit, () => (isNew ? api('POST', '/templates', { body }) : api('PUT', `/templates/${encodeURIComponent(id)}`, { body })));
    if (r) location.hash = `#/templates?post_type=${encodeURIComponent(r.template.post_type)}`;
  });
  return [h('h1', {}, isNew ? t('newTemplate') : t('editTemplate')), tmpl.is_system ? h('p', { class: 'alert alert-info' }, t('systemTemplate')) : null, form];
}

// ---- settings

async function settingsView() {
  const [s, ai, langs, prov] = await Promise.all([api('GET', '/settings'), api('GET', '/settings/ai'), languages(), providers()]);
  const g = s.settings.general;
  const a = ai.settings;
  const saveGeneral = h('button', { type: 'submit', class: 'primary', id: 'settings-save' }, t('save'));
  const langOptions = options(langs.languages.map((l) => [l.code, l.native_name]), g.locale);
  const general = h('form', { class: 'stack', id: 'settings-form' },
    h('div', { class: 'grid3' },
      field(t('adminLocale'), h('select', { name: 'admin_locale', id: 'admin-locale' }, options([['auto', t('auto')], ['en_US', 'English'], ['de_DE', 'Deutsch']], g.admin_locale))),
      field(t('contentLocale'), h('select', { name: 'locale' }, h('option', { value: 'auto', selected: g.locale === 'auto' }, t('auto')), langOptions)),
      field(t('textSource'), h('select', { name: 'text_source' }, options([['lorem', t('text_lorem')], ['realtext', t('text_realtext')], ['ai', t('text_ai')]], g.text_source))),
      field(t('defaultPostCount'), number('default_post_count', g.default_post_count, 1, 500)),
      field(t('defaultTermCount'), number('default_term_count', g.default_term_count, 1, 500)),
      field(t('defaultUserCount'), number('default_user_count', g.default_user_count, 1, 500)),
      field(t('defaultImageProvider'), providerSelect('default_image_provider', prov, g.default_image_provider)),
      field(t('hourlyRate'), h('input', { type: 'number', name: 'hourly_rate', min: 1, step: 'any', value: g.hourly_rate })),
      field(t('childBehavior'), h('select', { name: 'child_generate_behavior' }, options([['ask', t('child_ask')], ['child_only', t('child_child_only')], ['parent_chain', t('child_parent_chain')]], g.child_generate_behavior)))),
    h('fieldset', {}, h('legend', {}, t('behaviour')),
      h('div', { class: 'grid3' }, ['auto_select_default_template', 'save_and_generate_auto_run', 'delete_media_with_posts', 'delete_related_media', 'delete_related_terms',
        'delete_related_authors', 'delete_related_comments'].map((k) => field(t(`set_${k}`), checkbox(k, g[k]))))),
    h('div', { class: 'row' }, saveGeneral));
  general.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const r = await run(saveGeneral, () => api('POST', '/settings', { body: formValues(general) }));
    if (r) {
      const code = r.settings?.admin_locale ?? formValues(general).admin_locale;
      const next = langOf(code === 'auto' ? document.documentElement.dataset.siteLocale : code);
      if (next !== lang()) {
        setLang(next);
        chrome();
        route();
      }
    }
  });

  const saveAI = h('button', { type: 'submit', class: 'primary' }, t('save'));
  const testAI = h('button', { type: 'button' }, t('testConnection'));
  const clearAI = h('button', { type: 'button' }, t('clearAICache'));
  const aiOut = resultBox();
  const aiForm = h('form', { class: 'stack', id: 'ai-form', autocomplete: 'off' },
    h('div', { class: 'grid3' },
      field(t('aiEnabled'), checkbox('enabled', a.enabled)),
      field(t('aiProvider'), h('select', { name: 'provider' }, options(['ai_one', 'ai_two', 'ai_three'].map((p) => [p, p]), a.provider))),
      field(t('secondaryAI'), checkbox('secondary_ai_enabled', a.secondary_ai_enabled))),
    h('div', { class: 'grid3' }, ['ai_one', 'ai_two', 'ai_three'].map((p) => field(t('apiKeyOf', { p }),
      h('input', { type: 'password', name: `${p}_api_key`, autocomplete: 'new-password', placeholder: a.providers[p]?.masked_api_key || t('noKey') }),
      a.providers[p]?.has_api_key ? t('keyStored', { masked: a.providers[p].masked_api_key }) : t('keyKeep')))),
    h('div', { class: 'row wrap' }, saveAI, testAI, clearAI), aiOut);
  aiForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (await run(saveAI, () => api('POST', '/settings/ai', { body: formValues(aiForm) }))) route();
  });
  testAI.addEventListener('click', async () => {
    testAI.disabled = true;
    try {
      const r = await fetchTest();
      replace(aiOut, h('div', { class: `alert ${r.success ? 'alert-success' : 'alert-error'}` }, r.message));
    } finally {
      testAI.disabled = false;
    }
  });
  clearAI.addEventListener('click', () => run(clearAI, () => api('POST', '/settings/ai/clear-cache')));
  const resetTime = h('button', { type: 'button', class: 'danger' }, t('resetTimeSaved'));
  resetTime.addEventListener('click', async () => {
    if (await confirmDialog(t('confirmResetTime'), t('resetTimeSaved'))) run(resetTime, () => api('DELETE', '/time-saved'));
  });

  return [
    h('h1', {}, t('settings')),
    h('section', { class: 'panel' }, h('h2', {}, t('general')), general),
    h('section', { class: 'panel' }, h('h2', {}, t('ai')), h('p', { class: 'muted' }, t('aiHint')), aiForm),
    h('section', { class: 'panel' }, h('h2', {}, t('timeSaved')), resetTime),
  ];
}

// fetchTest runs the AI connection test, whose failures are answers, not
// errors.
async function fetchTest() {
  try {
    return await api('POST', '/settings/ai/test');
  } catch (e) {
    return { success: false, message: e.message };
  }
}

// ---------------------------------------------------------------- router

const sections = [
  ['dashboard', '#/'],
  ['generate', '#/generate/posts'],
  ['runs', '#/runs'],
  ['browse', '#/browse/posts'],
  ['history', '#/history'],
  ['templates', '#/templates'],
  ['settings', '#/settings'],
];

function sectionOf(path) {
  const first = path.split('/')[1] || '';
  if (first === 'post') return 'browse';
  if (first === 'template') return 'templates';
  return sections.some(([k]) => k === first) ? first : 'dashboard';
}

// chrome translates the parts of the page outside the view.
function chrome() {
  document.documentElement.lang = lang();
  document.title = `${t('brand')} · ${document.querySelector('meta[name="contentgen-site"]')?.content || ''}`;
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  replace(nav, h('ul', {}, sections.map(([k, href]) => h('li', {}, h('a', { href, dataset: { section: k } }, t(k))))));
  markNav();
}

function markNav() {
  const current = sectionOf(location.hash.slice(1).split('?')[0] || '/');
  for (const a of nav.querySelectorAll('a')) {
    if (a.dataset.section === current) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

// A view's streams and timers stop when the page shows another: views
// take viewSignal() when they start, and route aborts it.
let viewController = new AbortController();
const viewSignal = () => viewController.signal;

let routeSeq = 0;
async function route() {
  const seq = ++routeSeq;
  viewController.abort();
  viewController = new AbortController();
  const [path, qs] = (location.hash.slice(1) || '/').split('?');
  const params = new URLSearchParams(qs || '');
  const parts = path.split('/').filter(Boolean);
  markNav();
  document.body.classList.remove('nav-open');
  document.getElementById('menu-toggle').setAttribute('aria-expanded', 'false');
  main.setAttribute('aria-busy', 'true');
  let view;
  try {
    switch (parts[0]) {
      case 'generate': view = await generateView(parts[1] || 'posts'); break;
      case 'runs': view = await runsView(parts[1] || 'posts'); break;
      case 'browse': view = await browseView(parts[1] || 'posts', params); break;
      case 'post': view = await postView(parts[1]); break;
      case 'history': view = await historyView(params); break;
      case 'templates': view = await templatesView(params); break;
      case 'template': view = await templateEditor(parts[1], params); break;
      case 'settings': view = await settingsView(); break;
      default: view = await dashboard();
    }
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return;
    view = h('div', { class: 'alert alert-error', role: 'alert' }, t('loadFailed'), ' ', e.message);
  }
  if (seq !== routeSeq) return; // a later navigation won
  replace(main, view);
  main.removeAttribute('aria-busy');
  main.dataset.view = parts[0] || 'dashboard';
  main.dataset.route = path + (qs ? `?${qs}` : '');
  const heading = main.querySelector('h1');
  if (heading && document.activeElement && !main.contains(document.activeElement) && document.activeElement !== document.body) main.focus({ preventScroll: true });
  if (heading) document.title = `${heading.textContent} · ${t('brand')}`;
}

document.getElementById('menu-toggle').addEventListener('click', (ev) => {
  const open = document.body.classList.toggle('nav-open');
  ev.currentTarget.setAttribute('aria-expanded', String(open));
});
window.addEventListener('hashchange', route);
setLang(document.documentElement.lang);
chrome();
route();
