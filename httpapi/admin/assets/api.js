// The API client of the page: every call carries the session's nonce in
// X-Host-Nonce; an ended session sends the browser back to the login form.

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content || '';

export const base = meta('contentgen-api');
const nonce = meta('contentgen-nonce');

// ApiError is a failed call: the status and the API's message.
export class ApiError extends Error {
  constructor(status, message, code) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function url(path, query) {
  const u = new URL(base + path, location.href);
  for (const [k, v] of Object.entries(query || {})) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((x) => u.searchParams.append(`${k}[]`, x));
    else u.searchParams.set(k, v);
  }
  return u;
}

function headers(body) {
  const hd = { 'X-Host-Nonce': nonce, Accept: 'application/json' };
  if (body !== undefined) hd['Content-Type'] = 'application/json';
  return hd;
}

function sessionEnded() {
  location.assign('login?expired=1');
}

// api calls the API and returns its decoded JSON answer; it throws an
// ApiError for an error answer, including {success: false} ones.
export async function api(method, path, { query, body, signal } = {}) {
  const resp = await fetch(url(path, query), {
    method,
    headers: headers(body),
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    signal,
  });
  let data = null;
  try {
    data = await resp.json();
  } catch {
    data = null;
  }
  if (resp.status === 401) {
    sessionEnded();
    throw new ApiError(401, data?.message || 'Not logged in', data?.code);
  }
  if (!resp.ok || data?.success === false) {
    throw new ApiError(resp.status, data?.message || `HTTP ${resp.status}`, data?.code);
  }
  return data;
}

// stream posts body to a Server-Sent Events endpoint and calls onEvent
// with every decoded event until the stream ends or signal aborts it.
// EventSource cannot post, so the stream is read from fetch.
export async function stream(path, body, onEvent, signal) {
  const resp = await fetch(url(path), { method: 'POST', headers: headers(body), body: JSON.stringify(body), credentials: 'same-origin', signal });
  await readEvents(resp, onEvent);
}

// follow reads the Server-Sent Events of a GET endpoint, such as a run's
// events, like stream: EventSource cannot send the nonce header.
export async function follow(path, onEvent, signal) {
  const resp = await fetch(url(path), { method: 'GET', headers: headers(), credentials: 'same-origin', signal });
  await readEvents(resp, onEvent);
}

async function readEvents(resp, onEvent) {
  if (resp.status === 401) {
    sessionEnded();
    throw new ApiError(401, 'Not logged in');
  }
  const type = resp.headers.get('Content-Type') || '';
  if (!resp.ok || !type.startsWith('text/event-stream')) {
    let data = null;
    try {
      data = await resp.json();
    } catch {
      data = null;
    }
    throw new ApiError(resp.status, data?.message || `HTTP ${resp.status}`, data?.code);
  }
  const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value;
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
      if (data) onEvent(JSON.parse(data));
    }
  }
}
