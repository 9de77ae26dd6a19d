// The web console: a page of the agent itself, talking to the agent's own API through the client
// library (served from /console/client/). Nothing is fetched from anywhere else.
import { PatinaClient, PatinaError } from './client/index.js';

const $ = (id) => document.getElementById(id);
const MAX_ROWS = 10000; // rows shown of one query; the rest is not read
const TOKEN_KEY = 'patina.token';

let client = makeClient();
let running = null; // AbortController of the query being read
let live = null; // the open Subscription

function makeClient() {
  const token = sessionStorage.getItem(TOKEN_KEY) || undefined;
  return new PatinaClient({ url: location.origin, token });
}

function text(v) {
  if (v === null) return 'NULL';
  if (Array.isArray(v)) return "x'" + v.map((b) => b.toString(16).padStart(2, '0')).join('') + "'";
  return String(v);
}

function cell(td, v) {
  td.textContent = text(v);
  td.className = v === null ? 'null' : typeof v === 'number' || typeof v === 'bigint' ? 'num' : '';
}

function headerRow(table, columns, withRowId) {
  const tr = table.createTHead().insertRow();
  if (withRowId) {
    const th = document.createElement('th');
    th.textContent = 'rowid';
    th.className = 'rowid';
    tr.appendChild(th);
  }
  for (const c of columns) {
    const th = document.createElement('th');
    th.textContent = c;
    tr.appendChild(th);
  }
}

function showError(el, err) {
  el.textContent = err instanceof PatinaError ? `${err.message}${err.status ? ` (HTTP ${err.status})` : ''}` : String(err);
  el.className = 'error';
}

// ---- SQL editor: run a query, stream its rows into a table ----

async function runQuery() {
  const sql = $('sql').value.trim();
  if (!sql) return;
  running?.abort();
  const ac = new AbortController();
  running = ac;
  const status = $('query-status');
  const out = $('results');
  out.replaceChildren();
  status.className = 'muted';
  status.textContent = 'running…';
  $('stop').disabled = false;
  const t0 = performance.now();
  const q = client.query(sql, undefined, { signal: ac.signal });
  const table = document.createElement('table');
  let body = null;
  let n = 0;
  let cut = false;
  try {
    for await (const row of q) {
      if (!body) {
        headerRow(table, q.columns, false);
        body = table.createTBody();
        out.appendChild(table);
      }
      const tr = body.insertRow();
      for (const v of row) cell(tr.insertCell(), v);
      if (++n % 500 === 0) status.textContent = `${n} rows so far…`;
      if (n >= MAX_ROWS) {
        cut = true;
        break;
      }
    }
    if (!body) {
      headerRow(table, q.columns ?? [], false);
      out.appendChild(table);
    }
    const ms = (performance.now() - t0).toFixed(1);
    status.textContent = cut ? `first ${n} rows shown (stopped reading) · ${ms} ms` : `${n} row${n === 1 ? '' : 's'} · query ${(q.time * 1000).toFixed(2)} ms · total ${ms} ms`;
  } catch (err) {
    if (err instanceof PatinaError && err.kind === 'aborted') {
      status.textContent = `stopped after ${n} rows`;
    } else showError(status, err);
  } finally {
    if (running === ac) running = null;
    $('stop').disabled = true;
  }
}

// ---- Live view: a subscription whose rows update in place, changed cells highlighted ----

function liveRow(tbody, columns, rowId, cells) {
  const tr = document.createElement('tr');
  tr.dataset.rowid = String(rowId);
  const id = tr.insertCell();
  id.textContent = String(rowId);
  id.className = 'rowid';
  cells.forEach((v, i) => {
    const td = tr.insertCell();
    td.dataset.col = columns[i];
    cell(td, v);
  });
  // Keep rows in row id order: new ones go at the end, as the agent numbers them.
  tbody.appendChild(tr);
  return tr;
}

function renderLive(sub) {
  const table = document.createElement('table');
  headerRow(table, sub.columns, true);
  const tbody = table.createTBody();
  for (const [rowId, cells] of [...sub.rows].sort((a, b) => a[0] - b[0])) liveRow(tbody, sub.columns, rowId, cells);
  $('live').replaceChildren(table);
  return tbody;
}

function liveStatus(sub, state) {
  $('live-status').className = 'muted';
  $('live-status').textContent = `${state} · ${sub.rows.size} rows · change ${sub.changeId} · query id ${sub.queryId ?? '…'}`;
}

async function subscribe() {
  const sql = $('sql').value.trim();
  if (!sql) return;
  live?.close();
  const sub = client.subscribe(sql, undefined, { retry: { giveUpAfterMs: 120000 } });
  live = sub;
  $('live-pane').hidden = false;
  $('live-sql').textContent = sql;
  $('live').replaceChildren();
  $('live-status').textContent = 'subscribing…';
  let tbody = null;
  try {
    for await (const ev of sub) {
      if (live !== sub) break;
      if (ev.type === 'ready' || ev.type === 'reset') {
        tbody = renderLive(sub);
        liveStatus(sub, ev.type === 'ready' ? 'live' : `live (result read again: ${ev.reason})`);
      } else if (ev.type === 'change') {
        const tr = tbody.querySelector(`tr[data-rowid="${ev.rowId}"]`);
        if (ev.kind === 'insert' || !tr) {
          liveRow(tbody, sub.columns, ev.rowId, ev.cells).classList.add('inserted');
        } else if (ev.kind === 'update') {
          ev.cells.forEach((v, i) => {
            const td = tr.cells[i + 1];
            if (text(v) === td.textContent && typeof ev.previous?.[i] === typeof v) return;
            cell(td, v);
            td.classList.remove('changed');
            void td.offsetWidth; // restart the highlight
            td.classList.add('changed');
          });
        } else {
          tr.classList.add('deleted');
          setTimeout(() => tr.remove(), 1500);
        }
        liveStatus(sub, 'live');
      } else if (ev.type === 'disconnected') {
        liveStatus(sub, `reconnecting in ${ev.retryInMs} ms (${ev.error.message})`);
      } else if (ev.type === 'resumed') {
        liveStatus(sub, 'live (resumed)');
      }
    }
    if (live === sub) $('live-status').textContent = 'closed';
  } catch (err) {
    if (live === sub) showError($('live-status'), err);
  }
}

// ---- Table browser and cluster, from the agent's own API ----

function quoteIdent(name) {
  return '"' + name.replaceAll('"', '""') + '"';
}

async function loadTables() {
  const ul = $('tables');
  try {
    // The schema's tables from the health route; each one's columns from a query that reads no row
    // (pragmas and the agent's own tables are not open to clients).
    const health = await client.health();
    const names = [...(health.tables ?? [])].sort();
    const tables = await Promise.all(
      names.map(async (t) => {
        const q = client.query(`SELECT * FROM ${quoteIdent(t)} LIMIT 0`);
        await q.all();
        return [t, q.columns ?? []];
      }),
    );
    ul.replaceChildren();
    for (const [t, cols] of tables) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.textContent = t;
      a.dataset.table = t;
      a.addEventListener('click', () => {
        $('sql').value = `SELECT * FROM ${quoteIdent(t)} LIMIT 100`;
        void runQuery();
      });
      const span = document.createElement('span');
      span.className = 'cols';
      span.textContent = cols.join(', ');
      li.append(a, ' ', span);
      ul.appendChild(li);
    }
    if (tables.length === 0) ul.innerHTML = '<li class="muted">no tables in the schema</li>';
    if (!$('sql').value && tables.length) $('sql').value = `SELECT * FROM ${quoteIdent(tables[0][0])} LIMIT 100`;
  } catch (err) {
    ul.replaceChildren();
    showError(ul, err);
  }
}

async function loadCluster() {
  const box = $('cluster');
  try {
    const [m, health] = await Promise.all([client.members(), client.health()]);
    box.replaceChildren();
    box.className = '';
    if (!m.clustered) {
      box.className = 'muted';
      box.textContent = 'this agent runs alone (no gossip address)';
      return;
    }
    const table = document.createElement('table');
    table.className = 'members';
    headerRow(table, ['address', 'state', 'rtt'], false);
    const tbody = table.createTBody();
    for (const mem of m.members) {
      const tr = tbody.insertRow();
      tr.insertCell().textContent = mem.addr;
      const st = tr.insertCell();
      st.textContent = mem.state;
      st.className = `state-${mem.state}`;
      tr.insertCell().textContent = mem.rtt_ms === null ? '–' : `${mem.rtt_ms.toFixed(1)} ms`;
    }
    const kv = document.createElement('div');
    kv.className = 'kv';
    kv.id = 'replication-lag';
    const lag = health.replication_lag_versions ?? 0;
    const since = health.last_sync_ms_ago;
    kv.textContent = `replication lag: ${lag} version${lag === 1 ? '' : 's'} · gaps: ${health.gaps ?? 0}${since != null ? ` · last sync ${Math.round(since)} ms ago` : ''}`;
    box.append(table, kv);
  } catch (err) {
    showError(box, err);
  }
}

// ---- Wiring ----

$('agent').textContent = location.host;
$('token').value = sessionStorage.getItem(TOKEN_KEY) ?? '';
$('token-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const t = $('token').value.trim();
  if (t) sessionStorage.setItem(TOKEN_KEY, t);
  else sessionStorage.removeItem(TOKEN_KEY);
  client = makeClient();
  void loadTables();
  void loadCluster();
});
$('run').addEventListener('click', () => void runQuery());
$('stop').addEventListener('click', () => running?.abort());
$('subscribe').addEventListener('click', () => void subscribe());
$('unsubscribe').addEventListener('click', () => {
  live?.close();
  live = null;
  $('live-pane').hidden = true;
});
$('refresh-tables').addEventListener('click', () => void loadTables());
$('sql').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    void (e.shiftKey ? subscribe() : runQuery());
  }
});
void loadTables();
void loadCluster();
setInterval(() => void loadCluster(), 2000);
