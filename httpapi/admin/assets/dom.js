// Small DOM helpers: building elements without HTML strings, and showing
// HTML from the API through an allow-list.

// h builds an element: h('a', {href: '#/x', class: 'btn'}, 'text', child).
// Attributes named on* are event listeners; null and false attributes
// are left out; children may be strings, nodes, arrays, null or false.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2), v);
    } else if (k === 'dataset') {
      Object.assign(el.dataset, v);
    } else if (k === 'value' && 'value' in el) {
      el.value = v;
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// clear empties an element and fills it with children.
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// Tags and attributes kept from API HTML. Everything else is dropped: no
// scripts, no styles, no event handlers, no frames, no forms.
const allowedTags = new Set(['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'strong', 'b', 'em', 'i', 'u',
  's', 'blockquote', 'pre', 'code', 'a', 'img', 'figure', 'figcaption', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'div',
  'sub', 'sup', 'small', 'mark', 'dl', 'dt', 'dd', 'abbr', 'cite', 'q', 'del', 'ins']);
const allowedAttrs = { a: ['href', 'title'], img: ['src', 'alt', 'width', 'height', 'title'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'], abbr: ['title'] };
const dropWithContent = new Set(['script', 'style', 'template', 'iframe', 'object', 'embed', 'noscript', 'svg', 'math', 'form', 'textarea', 'select', 'button', 'head', 'title']);

function safeURL(v) {
  try {
    const u = new URL(v, document.baseURI);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

// sanitize parses html in an inert document and returns a fragment of
// the allowed elements and attributes only.
export function sanitize(html) {
  const doc = new DOMParser().parseFromString(String(html || ''), 'text/html');
  const out = document.createDocumentFragment();
  const copy = (src, dst) => {
    for (const n of src.childNodes) {
      if (n.nodeType === Node.TEXT_NODE) {
        dst.append(document.createTextNode(n.nodeValue));
        continue;
      }
      if (n.nodeType !== Node.ELEMENT_NODE) continue;
      const tag = n.localName;
      if (dropWithContent.has(tag)) continue;
      if (!allowedTags.has(tag)) {
        copy(n, dst); // keep the text of unknown wrappers
        continue;
      }
      const el = document.createElement(tag);
      for (const name of allowedAttrs[tag] || []) {
        const v = n.getAttribute(name);
        if (v === null) continue;
        if (name === 'href' || name === 'src') {
          const u = safeURL(v);
          if (u) el.setAttribute(name, u);
        } else {
          el.setAttribute(name, v);
        }
      }
      if (tag === 'a') {
        el.setAttribute('rel', 'noopener noreferrer nofollow');
        el.setAttribute('target', '_blank');
      }
      if (tag === 'img') el.setAttribute('loading', 'lazy');
      copy(n, el);
      dst.append(el);
    }
  };
  copy(doc.body, out);
  return out;
}

// field builds a labelled form control with a unique id.
let uid = 0;
export function field(label, control, hint) {
  const id = control.id || `f${++uid}`;
  control.id = id;
  if (control.type === 'checkbox') {
    return h('div', { class: 'check' }, control, h('label', { for: id }, label), hint ? h('small', { class: 'muted' }, hint) : null);
  }
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hint ? h('small', { class: 'muted' }, hint) : null);
}

// options builds <option>s from [value, label] pairs.
export function options(pairs, selected) {
  return pairs.map(([v, l]) => h('option', { value: v, selected: String(v) === String(selected) }, l));
}

// formValues reads named controls of a form into an object: checkboxes
// as booleans, number inputs as numbers (left out when empty), the rest
// as strings (left out when empty).
export function formValues(form) {
  const out = {};
  for (const el of form.elements) {
    if (!el.name || el.disabled) continue;
    if (el.type === 'checkbox') {
      if (el.dataset.list) {
        (out[el.name] ||= []);
        if (el.checked) out[el.name].push(el.value);
      } else {
        out[el.name] = el.checked;
      }
    } else if (el.type === 'number') {
      if (el.value !== '') out[el.name] = Number(el.value);
    } else if (el.value !== '') {
      out[el.name] = el.value;
    }
  }
  return out;
}
