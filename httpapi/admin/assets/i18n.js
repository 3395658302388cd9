// The words of the page in English and German. t(key, vars) looks a key
// up in the current language, falling back to English and then the key;
// {name} in a text is replaced by vars.name.

const en = {
  brand: 'contentgen admin', skip: 'Skip to content', menu: 'Menu', logout: 'Log out',
  dashboard: 'Dashboard', generate: 'Generate', browse: 'Browse', history: 'History', templates: 'Templates', settings: 'Settings',
  sections: 'Sections', summary: 'Summary', pages: 'Pages', prev: 'Previous', next: 'Next', pageOf: 'Page {page} of {pages}',
  cancel: 'Cancel', confirm: 'Confirm', save: 'Save', delete: 'Delete', filter: 'Filter', search: 'Search', all: 'All', any: 'Any',
  yes: 'yes', no: 'no', loadFailed: 'This view could not be loaded:', cancelled: 'Cancelled: the run was stopped.',
  generatedItems: 'items generated', timeSaved: 'Time saved', moneySaved: 'Money saved', workDays: '{n} work days',
  atRate: 'at {rate} per hour', whatWasGenerated: 'What was generated', whatExists: 'What exists', type: 'Type',
  generated: 'Generated', stillExisting: 'Still existing', postType: 'Post type', published: 'Published', otherStatuses: 'Other statuses',
  bySubtype: 'By subtype', recentActivity: 'Last 30 days', nothingYet: 'Nothing generated yet.', generateContent: 'Generate content',
  kind_post: 'Posts', kind_term: 'Terms', kind_user: 'Users', kind_comment: 'Comments', kind_media: 'Media',
  posts: 'Posts', terms: 'Terms', users: 'Users', comments: 'Comments', media: 'Media',
  count: 'Count', status: 'Status', template: 'Template', noTemplate: 'No template', default: 'Default', locale: 'Language',
  defaultLocale: 'Default language', seed: 'Seed', seedHint: 'The same seed gives the same content.',
  images: 'Images', setFeaturedImage: 'Featured image', downloadImages: 'Download new images',
  downloadImagesHint: 'Off reuses images of the media library.', imageProvider: 'Image provider', imageCategory: 'Image category',
  width: 'Width (px)', height: 'Height (px)', taxonomies: 'Taxonomies', autoTaxonomies: 'Assign terms automatically',
  noTaxonomies: 'This post type has no taxonomies.', mode: 'Mode', min: 'Min', max: 'Max', useExisting: 'Use existing terms',
  templateOrAuto: 'As the template says', mode_create: 'Create', mode_choose: 'Choose', mode_none: 'None',
  autoComments: 'Add comments', commentsMin: 'Comments per post, min', commentsMax: 'Comments per post, max',
  threading: 'Threaded replies', replyProbability: 'Reply probability (%)', variation: 'Variation and fields',
  enableVariation: 'Vary the content', variationProfile: 'Variation profile', customFields: 'Fill custom fields',
  dateFrom: 'Dated from', dateTo: 'Dated until', beforeGenerating: 'Before generating',
  deleteExisting: 'Delete generated posts of this type first', deleteScope: 'Scope', scope_current_type: 'This post type',
  scope_all: 'All post types', relatedMedia: 'With their media', relatedTerms: 'With their terms', relatedAuthors: 'With their authors',
  relatedComments: 'With their comments', relatedPosts: 'With related posts', progress: 'Progress',
  resultDetails: '{images} with featured image, {comments} comments, {authors} new authors; time saved: {time}.',
  seeGenerated: 'See the generated posts', timeSavedIs: 'Time saved: {time}.',
  status_publish: 'Published', status_draft: 'Draft', status_pending: 'Pending', status_private: 'Private', status_future: 'Scheduled',
  status_random: 'Random', status_trash: 'Trash', status_inherit: 'Inherit',
  taxonomy: 'Taxonomy', hierarchy: 'Nested tree', hierarchyHint: 'Depth and breadth set the number of terms.', depth: 'Depth', breadth: 'Breadth',
  deleteExistingOfKind: 'Delete the generated ones first', role: 'Role', randomRole: 'Random from the allowed roles',
  allowedRoles: 'Allowed roles', generateAvatars: 'Avatars', avatarProvider: 'Avatar provider',
  postIDs: 'Post ids', postIDsHint: 'Empty: every published post of the type.', pendingPercentage: 'Pending (%)',
  anonymousPercentage: 'Anonymous (%)', avatarPercentage: 'With avatar (%)',
  onlyGenerated: 'Generated only', onlyHandMade: 'Hand-made only', found: '{n} found', nothingFound: 'Nothing found.',
  untitled: '(no title)', generatedBadge: 'generated', anonymous: 'Anonymous', backToList: 'Back to the list',
  commentsCount: 'Comments ({n})', noComments: 'No comments.',
  title: 'Title', created: 'Created', exists: 'Exists', actions: 'Actions', deleteEntry: 'Delete entry',
  deleteWithContent: 'Delete with content', cleanupOrphans: 'Clean up orphans', clearHistory: 'Clear history',
  deleteAllGenerated: 'Delete all generated content', confirmDeleteContent: 'Delete “{title}” from the site, and its history entry?',
  confirmClearHistory: 'Forget the whole history? The content stays, but can then no longer be removed as generated.',
  confirmCleanupAll: 'Permanently delete every generated post, term, user and image, and clear the history? This cannot be undone.',
  deleteGeneratedPosts: 'Delete generated posts', confirmDeletePosts: 'Permanently delete the generated posts of type {type}?',
  newTemplate: 'New template', editTemplate: 'Edit template', export: 'Export', import: 'Import', select: 'Select',
  name: 'Name', description: 'Description', isDefault: 'Default for its post type', makeDefault: 'Make default',
  duplicate: 'Duplicate', variant: 'Variant', system: 'starter', systemTemplate: 'A starter template that comes with the service.',
  staleTemplates: '{n} templates need a look: their post type’s fields changed.', confirmDeleteTemplate: 'Delete the template “{name}” and its variants?',
  fields: 'Fields', field: 'Field', fieldType: 'Field type', fieldDefault: 'Default', advancedJSON: 'Advanced: configuration as JSON',
  invalidJSON: 'This is not valid JSON.',
  fieldConfigHint: 'Overrides the template’s field configuration, field by field.',
  relatedHint: 'Per post type: options of the related posts created for relationship fields.',
  general: 'General', adminLocale: 'Language of this page', contentLocale: 'Language of generated content', auto: 'Automatic (site language)',
  textSource: 'Text source', text_lorem: 'Lorem ipsum', text_realtext: 'Real text', text_ai: 'Written by the AI provider', defaultPostCount: 'Default post count',
  defaultTermCount: 'Default term count', defaultUserCount: 'Default user count', defaultImageProvider: 'Default image provider',
  hourlyRate: 'Hourly rate (USD)', childBehavior: 'Generating child posts', child_ask: 'Ask', child_child_only: 'Child only',
  child_parent_chain: 'With the parent chain', behaviour: 'Behaviour',
  set_auto_select_default_template: 'Preselect the default template', set_save_and_generate_auto_run: 'Generate right after saving a template',
  set_delete_media_with_posts: 'Delete media with posts', set_delete_related_media: 'Delete related media',
  set_delete_related_terms: 'Delete related terms', set_delete_related_authors: 'Delete related authors',
  set_delete_related_comments: 'Delete related comments',
  ai: 'AI field detection', aiHint: 'Keys are stored encrypted and only ever shown masked. Leave a key empty to keep the stored one.',
  aiEnabled: 'Enabled', aiProvider: 'Provider', secondaryAI: 'Secondary detection', apiKeyOf: 'API key of {p}', noKey: 'no key stored',
  keyStored: 'Stored: {masked}', keyKeep: 'No key stored.', testConnection: 'Test connection', clearAICache: 'Clear detection cache',
  resetTimeSaved: 'Reset time saved', confirmResetTime: 'Reset the time and money saved to zero?',
  runs: 'Runs', runsIntro: 'A run makes any number of items in batches of up to 500, as jobs of the server that survive a restart; this list follows them live.',
  runsUnavailable: 'Runs are not set up on this server. A server that keeps the site in memory has no database for their jobs, and a WordPress site reached only through its REST API cannot commit a batch together with the record of it.',
  runsUnavailableLink: 'Generate up to 500 items at a time without a run', serverSays: 'The server says: {message}',
  noRuns: 'No runs yet.', newRun: 'New run', startRunButton: 'Start run', noUpperLimit: 'No upper limit.', batchSize: 'Batch size',
  batchSizeHint: 'Items per batch, 1 to 500; empty: the server’s default.', moreAsRun: 'More than 500? Start a run.',
  rate: 'Rate', perSecond: '{n}/s', errors: 'Errors', started: 'Started', ended: 'Ended', workers: 'Workers',
  nItems: '{n} items', nItems_one: '{n} item', nBatches: '{n} batches', nBatches_one: '{n} batch', doneOf: '{done} of {total}', lastError: 'Last error: {message}',
  warningsCount: 'Warnings ({n})', cancelRun: 'Cancel run', resumeRun: 'Resume run', keepRunning: 'Keep running',
  confirmCancelRun: 'Cancel this run? Batches that have not started are skipped; what it made stays in the history.',
  runStarted: '{kind}: run of {n} started.', refreshFailed: 'The list could not be refreshed: {message}',
  run_queued: 'Queued', run_running: 'Running', run_succeeded: 'Succeeded', run_failed: 'Failed', run_cancelled: 'Cancelled',
};

const de = {
  brand: 'contentgen-Verwaltung', skip: 'Zum Inhalt springen', menu: 'Menü', logout: 'Abmelden',
  dashboard: 'Übersicht', generate: 'Erzeugen', browse: 'Durchsehen', history: 'Verlauf', templates: 'Vorlagen', settings: 'Einstellungen',
  sections: 'Bereiche', summary: 'Zusammenfassung', pages: 'Seiten', prev: 'Zurück', next: 'Weiter', pageOf: 'Seite {page} von {pages}',
  cancel: 'Abbrechen', confirm: 'Bestätigen', save: 'Speichern', delete: 'Löschen', filter: 'Filtern', search: 'Suche', all: 'Alle', any: 'Beliebig',
  yes: 'ja', no: 'nein', loadFailed: 'Diese Ansicht konnte nicht geladen werden:', cancelled: 'Abgebrochen: der Lauf wurde gestoppt.',
  generatedItems: 'Elemente erzeugt', timeSaved: 'Gesparte Zeit', moneySaved: 'Gespartes Geld', workDays: '{n} Arbeitstage',
  atRate: 'bei {rate} pro Stunde', whatWasGenerated: 'Was erzeugt wurde', whatExists: 'Was es gibt', type: 'Art',
  generated: 'Erzeugt', stillExisting: 'Noch vorhanden', postType: 'Inhaltstyp', published: 'Veröffentlicht', otherStatuses: 'Andere Status',
  bySubtype: 'Nach Unterart', recentActivity: 'Letzte 30 Tage', nothingYet: 'Noch nichts erzeugt.', generateContent: 'Inhalte erzeugen',
  kind_post: 'Beiträge', kind_term: 'Begriffe', kind_user: 'Benutzer', kind_comment: 'Kommentare', kind_media: 'Medien',
  posts: 'Beiträge', terms: 'Begriffe', users: 'Benutzer', comments: 'Kommentare', media: 'Medien',
  count: 'Anzahl', status: 'Status', template: 'Vorlage', noTemplate: 'Keine Vorlage', default: 'Standard', locale: 'Sprache',
  defaultLocale: 'Standardsprache', seed: 'Startwert', seedHint: 'Derselbe Startwert ergibt dieselben Inhalte.',
  images: 'Bilder', setFeaturedImage: 'Beitragsbild', downloadImages: 'Neue Bilder herunterladen',
  downloadImagesHint: 'Aus: Bilder der Mediathek wiederverwenden.', imageProvider: 'Bildquelle', imageCategory: 'Bildkategorie',
  width: 'Breite (px)', height: 'Höhe (px)', taxonomies: 'Taxonomien', autoTaxonomies: 'Begriffe automatisch zuordnen',
  noTaxonomies: 'Dieser Inhaltstyp hat keine Taxonomien.', mode: 'Modus', min: 'Min.', max: 'Max.', useExisting: 'Vorhandene Begriffe nutzen',
  templateOrAuto: 'Wie in der Vorlage', mode_create: 'Erzeugen', mode_choose: 'Auswählen', mode_none: 'Keine',
  autoComments: 'Kommentare hinzufügen', commentsMin: 'Kommentare je Beitrag, min.', commentsMax: 'Kommentare je Beitrag, max.',
  threading: 'Verschachtelte Antworten', replyProbability: 'Antwortwahrscheinlichkeit (%)', variation: 'Variation und Felder',
  enableVariation: 'Inhalte variieren', variationProfile: 'Variationsprofil', customFields: 'Eigene Felder füllen',
  dateFrom: 'Datiert ab', dateTo: 'Datiert bis', beforeGenerating: 'Vor dem Erzeugen',
  deleteExisting: 'Zuerst erzeugte Beiträge dieses Typs löschen', deleteScope: 'Umfang', scope_current_type: 'Dieser Inhaltstyp',
  scope_all: 'Alle Inhaltstypen', relatedMedia: 'Mit ihren Medien', relatedTerms: 'Mit ihren Begriffen', relatedAuthors: 'Mit ihren Autoren',
  relatedComments: 'Mit ihren Kommentaren', relatedPosts: 'Mit verknüpften Beiträgen', progress: 'Fortschritt',
  resultDetails: '{images} mit Beitragsbild, {comments} Kommentare, {authors} neue Autoren; gesparte Zeit: {time}.',
  seeGenerated: 'Erzeugte Beiträge ansehen', timeSavedIs: 'Gesparte Zeit: {time}.',
  status_publish: 'Veröffentlicht', status_draft: 'Entwurf', status_pending: 'Ausstehend', status_private: 'Privat', status_future: 'Geplant',
  status_random: 'Zufällig', status_trash: 'Papierkorb', status_inherit: 'Geerbt',
  taxonomy: 'Taxonomie', hierarchy: 'Verschachtelter Baum', hierarchyHint: 'Tiefe und Breite bestimmen die Anzahl.', depth: 'Tiefe', breadth: 'Breite',
  deleteExistingOfKind: 'Zuerst die erzeugten löschen', role: 'Rolle', randomRole: 'Zufällig aus den erlaubten Rollen',
  allowedRoles: 'Erlaubte Rollen', generateAvatars: 'Profilbilder', avatarProvider: 'Quelle der Profilbilder',
  postIDs: 'Beitrags-IDs', postIDsHint: 'Leer: alle veröffentlichten Beiträge des Typs.', pendingPercentage: 'Ausstehend (%)',
  anonymousPercentage: 'Anonym (%)', avatarPercentage: 'Mit Profilbild (%)',
  onlyGenerated: 'Nur erzeugte', onlyHandMade: 'Nur von Hand erstellte', found: '{n} gefunden', nothingFound: 'Nichts gefunden.',
  untitled: '(ohne Titel)', generatedBadge: 'erzeugt', anonymous: 'Anonym', backToList: 'Zurück zur Liste',
  commentsCount: 'Kommentare ({n})', noComments: 'Keine Kommentare.',
  title: 'Titel', created: 'Erstellt', exists: 'Vorhanden', actions: 'Aktionen', deleteEntry: 'Eintrag löschen',
  deleteWithContent: 'Mit Inhalt löschen', cleanupOrphans: 'Verwaiste bereinigen', clearHistory: 'Verlauf leeren',
  deleteAllGenerated: 'Alle erzeugten Inhalte löschen', confirmDeleteContent: '„{title}“ von der Website löschen, samt Verlaufseintrag?',
  confirmClearHistory: 'Den ganzen Verlauf vergessen? Die Inhalte bleiben, können danach aber nicht mehr als erzeugt entfernt werden.',
  confirmCleanupAll: 'Alle erzeugten Beiträge, Begriffe, Benutzer und Bilder endgültig löschen und den Verlauf leeren? Das lässt sich nicht rückgängig machen.',
  deleteGeneratedPosts: 'Erzeugte Beiträge löschen', confirmDeletePosts: 'Die erzeugten Beiträge des Typs {type} endgültig löschen?',
  newTemplate: 'Neue Vorlage', editTemplate: 'Vorlage bearbeiten', export: 'Exportieren', import: 'Importieren', select: 'Auswählen',
  name: 'Name', description: 'Beschreibung', isDefault: 'Standard für den Inhaltstyp', makeDefault: 'Zum Standard machen',
  duplicate: 'Duplizieren', variant: 'Variante', system: 'Startvorlage', systemTemplate: 'Eine Startvorlage, die der Dienst mitbringt.',
  staleTemplates: '{n} Vorlagen brauchen einen Blick: die Felder ihres Inhaltstyps haben sich geändert.', confirmDeleteTemplate: 'Die Vorlage „{name}“ samt Varianten löschen?',
  fields: 'Felder', field: 'Feld', fieldType: 'Feldtyp', fieldDefault: 'Standard', advancedJSON: 'Erweitert: Konfiguration als JSON',
  invalidJSON: 'Das ist kein gültiges JSON.',
  fieldConfigHint: 'Überschreibt die Feldkonfiguration der Vorlage Feld für Feld.',
  relatedHint: 'Je Inhaltstyp: Optionen der verknüpften Beiträge, die für Beziehungsfelder erzeugt werden.',
  general: 'Allgemein', adminLocale: 'Sprache dieser Seite', contentLocale: 'Sprache erzeugter Inhalte', auto: 'Automatisch (Sprache der Website)',
  textSource: 'Textquelle', text_lorem: 'Lorem ipsum', text_realtext: 'Echter Text', text_ai: 'Vom KI-Anbieter geschrieben', defaultPostCount: 'Standardanzahl Beiträge',
  defaultTermCount: 'Standardanzahl Begriffe', defaultUserCount: 'Standardanzahl Benutzer', defaultImageProvider: 'Standard-Bildquelle',
  hourlyRate: 'Stundensatz (USD)', childBehavior: 'Untergeordnete Beiträge erzeugen', child_ask: 'Nachfragen', child_child_only: 'Nur den untergeordneten',
  child_parent_chain: 'Mit der Elternkette', behaviour: 'Verhalten',
  set_auto_select_default_template: 'Standardvorlage vorauswählen', set_save_and_generate_auto_run: 'Nach dem Speichern einer Vorlage gleich erzeugen',
  set_delete_media_with_posts: 'Medien mit Beiträgen löschen', set_delete_related_media: 'Zugehörige Medien löschen',
  set_delete_related_terms: 'Zugehörige Begriffe löschen', set_delete_related_authors: 'Zugehörige Autoren löschen',
  set_delete_related_comments: 'Zugehörige Kommentare löschen',
  ai: 'KI-Felderkennung', aiHint: 'Schlüssel werden verschlüsselt gespeichert und nur maskiert angezeigt. Leer lassen behält den gespeicherten.',
  aiEnabled: 'Aktiviert', aiProvider: 'Anbieter', secondaryAI: 'Zweite Erkennung', apiKeyOf: 'API-Schlüssel von {p}', noKey: 'kein Schlüssel gespeichert',
  keyStored: 'Gespeichert: {masked}', keyKeep: 'Kein Schlüssel gespeichert.', testConnection: 'Verbindung testen', clearAICache: 'Erkennungs-Cache leeren',
  resetTimeSaved: 'Gesparte Zeit zurücksetzen', confirmResetTime: 'Gesparte Zeit und gespartes Geld auf null setzen?',
  runs: 'Läufe', runsIntro: 'Ein Lauf erzeugt beliebig viele Elemente in Stapeln von bis zu 500, als Aufträge des Servers, die einen Neustart überstehen; diese Liste verfolgt sie live.',
  runsUnavailable: 'Läufe sind auf diesem Server nicht eingerichtet. Ein Server, der die Website im Speicher hält, hat keine Datenbank für ihre Aufträge, und eine WordPress-Website, die nur über ihre REST-API erreicht wird, kann einen Stapel nicht zusammen mit seinem Eintrag festschreiben.',
  runsUnavailableLink: 'Bis zu 500 Elemente auf einmal ohne Lauf erzeugen', serverSays: 'Der Server meldet: {message}',
  noRuns: 'Noch keine Läufe.', newRun: 'Neuer Lauf', startRunButton: 'Lauf starten', noUpperLimit: 'Ohne Obergrenze.', batchSize: 'Stapelgröße',
  batchSizeHint: 'Elemente je Stapel, 1 bis 500; leer: Vorgabe des Servers.', moreAsRun: 'Mehr als 500? Einen Lauf starten.',
  rate: 'Tempo', perSecond: '{n}/s', errors: 'Fehler', started: 'Begonnen', ended: 'Beendet', workers: 'Worker',
  nItems: '{n} Elemente', nItems_one: '{n} Element', nBatches: '{n} Stapel', nBatches_one: '{n} Stapel', doneOf: '{done} von {total}', lastError: 'Letzter Fehler: {message}',
  warningsCount: 'Warnungen ({n})', cancelRun: 'Lauf abbrechen', resumeRun: 'Lauf fortsetzen', keepRunning: 'Weiterlaufen lassen',
  confirmCancelRun: 'Diesen Lauf abbrechen? Noch nicht begonnene Stapel entfallen; was er erzeugt hat, bleibt im Verlauf.',
  runStarted: '{kind}: Lauf über {n} gestartet.', refreshFailed: 'Die Liste konnte nicht aktualisiert werden: {message}',
  run_queued: 'Wartet', run_running: 'Läuft', run_succeeded: 'Fertig', run_failed: 'Fehlgeschlagen', run_cancelled: 'Abgebrochen',
};

const dictionaries = { en, de };
let current = 'en';

// langOf maps a locale code such as "de_DE" to a language of the page.
export function langOf(code) {
  return String(code || '').toLowerCase().replace('-', '_').split('_')[0] === 'de' ? 'de' : 'en';
}

// setLang switches the language: "en", "de" or a locale code.
export function setLang(code) {
  current = langOf(code);
}

// lang returns the current language.
export function lang() {
  return current;
}

// t returns the text of key in the current language.
export function t(key, vars) {
  const s = dictionaries[current][key] ?? en[key] ?? key;
  return vars ? s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : s;
}

// missing lists the keys one language has and the other lacks.
export function missing() {
  const a = Object.keys(en).filter((k) => !(k in de)).map((k) => `de:${k}`);
  const b = Object.keys(de).filter((k) => !(k in en)).map((k) => `en:${k}`);
  return a.concat(b);
}
