/*
 * The kafka-fetch page: reads the dev console's JSON every REFRESH_MS and shows, per route, task and partition, the
 * window (held / in flight), lag and rate over the last HISTORY_MS (kept here, in the page), the stuck record, and
 * buttons for the operator actions that GET /kafka-fetch/actions lists (pause, resume, park, seek per partition; the
 * dead letters of each route with a dead-letter topic, read from GET /kafka-fetch/dead-letters, and their replay).
 * Actions are POSTs carrying this server's
 * token (the meta tag kafka-fetch-token) in the X-Kafka-Fetch-Token header. Plain ES5, no build step; every value
 * from the server is put in the page as text, never as HTML.
 */
(function () {
  'use strict';

  var CONSOLE_URL = '/q/dev/kafka-fetch?format=json';
  var ACTIONS_URL = '/kafka-fetch/actions';
  var DEAD_LETTERS_URL = '/kafka-fetch/dead-letters';
  var REFRESH_MS = 2000;
  var HISTORY_MS = 5 * 60 * 1000;
  var SVG = 'http://www.w3.org/2000/svg';

  var token = document.querySelector('meta[name="kafka-fetch-token"]').getAttribute('content');
  var tokenHeader = 'X-Kafka-Fetch-Token';
  var available = {};      // action name -> true, as listed by the server
  var routeActions = {};   // routeId -> whether the route takes operator actions
  var deadLetterRoutes = []; // routeIds whose route has a dead-letter topic
  var seekOffsets = {};    // route/topic/partition -> the offset typed in its seek box, kept across re-renders
  var history = {};        // series key -> [{t, lag, rate}] for the last HISTORY_MS
  var busy = false;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) {
      for (var k in attrs) {
        if (Object.prototype.hasOwnProperty.call(attrs, k) && attrs[k] !== null && attrs[k] !== undefined) {
          e.setAttribute(k, String(attrs[k]));
        }
      }
    }
    if (text !== undefined && text !== null) {
      e.textContent = String(text);
    }
    return e;
  }

  function request(method, url, body, done) {
    var xhr = new XMLHttpRequest();
    xhr.open(method, url, true);
    if (method === 'POST') {
      xhr.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');
      xhr.setRequestHeader(tokenHeader, token);
    }
    xhr.onreadystatechange = function () {
      if (xhr.readyState !== 4) {
        return;
      }
      var json = null;
      try {
        json = JSON.parse(xhr.responseText);
      } catch (e) {
        json = { message: xhr.responseText || ('HTTP ' + xhr.status) };
      }
      done(xhr.status, json);
    };
    xhr.send(body);
  }

  function form(params) {
    var parts = [];
    for (var k in params) {
      if (Object.prototype.hasOwnProperty.call(params, k)) {
        parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(String(params[k])));
      }
    }
    return parts.join('&');
  }

  // ---- actions ----

  function loadActions() {
    request('GET', ACTIONS_URL, null, function (status, json) {
      if (status !== 200) {
        document.getElementById('actions-state').textContent = 'actions unavailable: ' + json.message;
        return;
      }
      tokenHeader = json.tokenHeader || tokenHeader;
      available = {};
      (json.actions || []).forEach(function (a) { available[a.name] = true; });
      routeActions = {};
      deadLetterRoutes = [];
      var on = [];
      (json.routes || []).forEach(function (r) {
        routeActions[r.routeId] = r.operatorActions;
        if (r.deadLetterTopic) {
          deadLetterRoutes.push(r.routeId);
        }
        if (r.operatorActions) {
          on.push(r.routeId);
        }
      });
      document.getElementById('actions-state').textContent = on.length
        ? 'operator actions on for: ' + on.join(', ')
        : 'operator actions off (start the example with --operator-actions true)';
      if (available.replay) {
        renderDeadLetters();
      }
      refresh();
    });
  }

  function sendAction(action, params, done) {
    request('POST', ACTIONS_URL + '/' + encodeURIComponent(action), form(params), function (status, json) {
      var where = params.topic === undefined ? params.route : params.route + ' ' + params.topic + '-'
        + params.partition + (params.offset !== undefined ? '@' + params.offset : '');
      message(status === 200 ? 'done' : 'refused', action + ' ' + where + ': ' + json.message);
      if (done) {
        done(status, json);
      }
      refresh();
    });
  }

  // A seek goes out without confirmSkip; when the component answers that it would skip records (a forward seek),
  // the operator is shown its message and asked, and only then is it sent again with confirmSkip=true.
  function seek(params) {
    request('POST', ACTIONS_URL + '/seek', form(params), function (status, json) {
      var where = params.route + ' ' + params.topic + '-' + params.partition + '@' + params.offset;
      if (status === 409 && /confirmSkip/.test(json.message || '')) {
        if (window.confirm('Seek ' + where + '? ' + json.message)) {
          params.confirmSkip = true;
          sendAction('seek', params);
        } else {
          message('refused', 'seek ' + where + ': not confirmed, nothing changed');
        }
        return;
      }
      message(status === 200 ? 'done' : 'refused', 'seek ' + where + ': ' + json.message);
      refresh();
    });
  }

  function seekControl(route, p) {
    var box = el('span', { 'class': 'seek' });
    var key = route + '/' + p.topic + '/' + p.partition;
    var input = el('input', {
      type: 'number', min: '0', 'class': 'seek-offset', 'data-route': route, 'data-topic': p.topic,
      'data-partition': p.partition, placeholder: 'offset', title: 'Offset to seek this partition to'
    });
    if (seekOffsets[key] !== undefined) {
      input.value = seekOffsets[key];
    }
    input.addEventListener('input', function () { seekOffsets[key] = input.value; });
    var b = el('button', {
      'class': 'action', 'data-action': 'seek', 'data-route': route, 'data-topic': p.topic,
      'data-partition': p.partition, title: 'Seek this partition: back delivers again, forward skips (asks first)'
    }, 'Seek');
    if (!routeActions[route]) {
      b.disabled = true;
      input.disabled = true;
    }
    b.addEventListener('click', function () {
      if (input.value === '') {
        message('refused', 'seek ' + route + ' ' + p.topic + '-' + p.partition + ': give an offset');
        return;
      }
      seek({ route: route, topic: p.topic, partition: p.partition, offset: input.value });
    });
    box.appendChild(input);
    box.appendChild(b);
    return box;
  }

  function message(kind, text) {
    var box = document.getElementById('messages');
    var m = el('div', { 'class': kind }, text);
    box.insertBefore(m, box.firstChild);
    while (box.childNodes.length > 5) {
      box.removeChild(box.lastChild);
    }
  }

  function actionButton(action, label, params, title) {
    var b = el('button', {
      'class': 'action', 'data-action': action, 'data-route': params.route, 'data-topic': params.topic,
      'data-partition': params.partition, 'data-offset': params.offset, title: title
    }, label);
    if (!routeActions[params.route]) {
      b.disabled = true;
      b.title = 'operatorActions is off for route ' + params.route
        + ': start the example with --operator-actions true';
    }
    b.addEventListener('click', function () {
      if (action === 'park' && !window.confirm('Park ' + params.topic + '-' + params.partition + '@'
          + params.offset + '? It is dead-lettered now with reason parked, and its partition moves on.')) {
        return;
      }
      sendAction(action, params);
    });
    return b;
  }

  // ---- dead letters: browse (GET, open) and replay (an action) ----

  var LETTER_COLUMNS = ['letter', 'originalTopic', 'originalPartition', 'originalOffset', 'reason', 'exceptionClass',
    'exceptionMessage', 'attempts', 'key', 'timestamp'];

  function renderDeadLetters() {
    var section = document.getElementById('dead-letters');
    var list = document.getElementById('dead-letter-list');
    while (list.firstChild) {
      list.removeChild(list.firstChild);
    }
    if (!deadLetterRoutes.length) {
      section.hidden = true;
      return;
    }
    section.hidden = false;
    deadLetterRoutes.forEach(function (route) {
      var box = el('div', { 'class': 'dead-letter-route', 'data-route': route });
      box.appendChild(el('h3', null, 'Route ' + route));
      var filter = el('input', {
        type: 'text', 'class': 'dead-letter-filter', 'data-route': route, size: '40',
        placeholder: 'filter: reason=failed,partition=0 (empty: all)'
      });
      var show = el('button', { 'class': 'show-dead-letters', 'data-route': route }, 'Show');
      var replay = el('button', {
        'class': 'action', 'data-action': 'replay', 'data-route': route,
        title: 'Put the letters shown back on their original topics (each at most once)'
      }, 'Replay these');
      if (!routeActions[route]) {
        replay.disabled = true;
        replay.title = 'operatorActions is off for route ' + route;
      }
      var table = el('div', { 'class': 'dead-letter-table', 'data-route': route });
      show.addEventListener('click', function () { loadDeadLetters(route, filter.value, table); });
      replay.addEventListener('click', function () {
        var f = filter.value;
        if (!window.confirm('Replay the dead letters of route ' + route + ' matching "' + (f || 'all')
            + '" to their original topics? Letters replayed before are left out.')) {
          return;
        }
        sendAction('replay', { route: route, filter: f }, function () { loadDeadLetters(route, f, table); });
      });
      box.appendChild(filter);
      box.appendChild(show);
      box.appendChild(replay);
      box.appendChild(table);
      list.appendChild(box);
      loadDeadLetters(route, '', table);
    });
  }

  function loadDeadLetters(route, filter, into) {
    var url = DEAD_LETTERS_URL + '?' + form({ route: route, filter: filter });
    request('GET', url, null, function (status, json) {
      while (into.firstChild) {
        into.removeChild(into.firstChild);
      }
      if (status !== 200) {
        into.appendChild(el('div', { 'class': 'refused' }, 'dead letters unavailable: ' + json.message));
        return;
      }
      into.appendChild(el('div', { 'class': 'dead-letter-count' }, json.count + ' letter(s) in '
        + json.deadLetterTopic + (filter ? ' matching ' + filter : '')));
      var table = el('table', { 'class': 'dead-letters' });
      var head = el('tr');
      LETTER_COLUMNS.forEach(function (c) { head.appendChild(el('th', null, c)); });
      table.appendChild(head);
      (json.letters || []).forEach(function (l) {
        var tr = el('tr', { 'class': 'dead-letter', 'data-letter': l.letter });
        LETTER_COLUMNS.forEach(function (c) {
          var v = l[c];
          tr.appendChild(el('td', null, c === 'timestamp' && v > 0 ? new Date(v).toISOString() : v));
        });
        table.appendChild(tr);
      });
      into.appendChild(table);
    });
  }

  // ---- history (kept in the page) ----

  function remember(key, now, lag, rate) {
    var series = history[key] || (history[key] = []);
    series.push({ t: now, lag: lag, rate: rate });
    while (series.length && series[0].t < now - HISTORY_MS) {
      series.shift();
    }
    return series;
  }

  function chart(series, width, height, withRate) {
    var svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'chart');
    svg.setAttribute('width', width);
    svg.setAttribute('height', height);
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    var now = series.length ? series[series.length - 1].t : 0;
    var maxima = {};
    function line(field, cls) {
      var max = 1;
      series.forEach(function (s) { max = Math.max(max, s[field] > 0 ? s[field] : 0); });
      maxima[field] = max;
      var points = series.map(function (s) {
        var x = width - (now - s.t) / HISTORY_MS * width;
        var y = height - 2 - (s[field] > 0 ? s[field] : 0) / max * (height - 4);
        return x.toFixed(1) + ',' + y.toFixed(1);
      });
      var p = document.createElementNS(SVG, 'polyline');
      p.setAttribute('class', cls);
      p.setAttribute('points', points.join(' '));
      svg.appendChild(p);
    }
    line('lag', 'lag');
    if (withRate) {
      line('rate', 'rate');
      var label = document.createElementNS(SVG, 'text');
      label.setAttribute('x', 4);
      label.setAttribute('y', 11);
      label.setAttribute('class', 'scale');
      label.textContent = 'last 5 min; top: lag ' + maxima.lag + ', rate ' + Number(maxima.rate).toFixed(1) + '/s';
      svg.appendChild(label);
    }
    return svg;
  }

  // ---- rendering ----

  function num(n) {
    return n === null || n === undefined || n < 0 ? '-' : String(n);
  }

  function duration(ms) {
    if (ms === null || ms === undefined || ms <= 0) {
      return '-';
    }
    return ms < 1000 ? ms + 'ms' : ms < 60000 ? (ms / 1000).toFixed(1) + 's' : Math.round(ms / 60000) + 'min';
  }

  function stuckText(o) {
    var s = 'offset ' + o.offset + '  key ' + (o.key === null ? '-' : o.key) + '  attempt ' + o.attempt + '  '
      + o.state + '  polled ' + duration(o.ageMs) + ' ago';
    if (o.thread) {
      s += '  running ' + duration(o.runningMs) + ' on ' + o.thread + ' (' + o.threadState + ')';
    }
    if (o.waitingBehind >= 0) {
      s += '  waiting behind it: ' + o.waitingBehind;
    }
    var a = o.waitsBehind;
    if (a) {
      s += '  waits behind offset ' + a.offset + ' (' + a.state
        + (a.thread ? ' ' + duration(a.runningMs) + ' on ' + a.thread + ' (' + a.threadState + ')' : '')
        + ', from before a seek back or a rebalance)';
    }
    return s;
  }

  function renderTask(route, task, now) {
    var box = el('div', { 'class': 'task', 'data-task': task.threadName });
    box.appendChild(el('h3', null, task.threadName + ' \u2014 ' + task.state));
    var figures = el('div', { 'class': 'figures' });
    var held = el('span', { 'class': 'held' }, 'held ' + task.held + '/' + task.maxInFlightRecords + ' ');
    var bar = el('span', { 'class': 'bar' });
    var fill = el('span');
    fill.style.width = Math.min(100, task.maxInFlightRecords > 0 ? 100 * task.held / task.maxInFlightRecords : 0) + '%';
    bar.appendChild(fill);
    held.appendChild(bar);
    figures.appendChild(held);
    figures.appendChild(el('span', { 'class': 'in-flight' }, 'in flight ' + task.inFlight));
    figures.appendChild(el('span', null, 'running ' + task.running + '/' + task.maxConcurrency));
    figures.appendChild(el('span', null, 'queued ' + task.queued));
    figures.appendChild(el('span', { 'class': 'legend-rate' }, 'rate ' + Number(task.recordsPerSecond).toFixed(1)
      + '/s'));
    figures.appendChild(el('span', { 'class': 'legend-lag' }, 'lag ' + num(task.lag)));
    figures.appendChild(el('span', null, 'finished ' + task.recordsFinished + ', dead-lettered '
      + task.recordsDeadLettered + ', parked ' + task.recordsParked));
    box.appendChild(figures);
    var series = remember(route.routeId + '/' + task.threadName, now, task.lag, task.recordsPerSecond);
    box.appendChild(chart(series, 320, 60, true));
    if (task.lastError) {
      box.appendChild(el('div', { 'class': 'error' }, 'last error: ' + task.lastError));
    }
    var partitions = task.partitions || [];
    if (!partitions.length) {
      box.appendChild(el('div', null, task.share ? 'share group ' + task.share.groupId : 'no partitions assigned'));
      return box;
    }
    var table = el('table', { 'class': 'partitions' });
    var head = el('tr');
    ['partition', 'position', 'committed', 'end', 'lag', 'in flight', 'held', 'paused', 'lag (5 min)', 'stuck on',
      'actions'].forEach(function (h) { head.appendChild(el('th', null, h)); });
    table.appendChild(head);
    partitions.forEach(function (p) {
      var name = p.topic + '-' + p.partition;
      var tr = el('tr', { 'class': p.paused ? 'partition paused' : 'partition', 'data-partition': name });
      [name, num(p.position), num(p.committed), num(p.endOffset), num(p.lag), p.inFlight, p.held,
        p.paused ? 'yes (' + p.pausedReason + ')' : 'no'].forEach(function (v) { tr.appendChild(el('td', null, v)); });
      var spark = el('td');
      spark.appendChild(chart(remember(route.routeId + '/' + name, now, p.lag, 0), 100, 20, false));
      tr.appendChild(spark);
      tr.appendChild(el('td', { 'class': 'stuck' }, p.oldestUnfinished ? stuckText(p.oldestUnfinished) : '-'));
      var actions = el('td', { 'class': 'actions' });
      var params = { route: route.routeId, topic: p.topic, partition: p.partition };
      var byOperator = p.paused && p.pausedReason === 'operator';
      if (byOperator && available.resume) {
        actions.appendChild(actionButton('resume', 'Resume', params, 'Resume this partition'));
      } else if (!byOperator && available.pause) {
        actions.appendChild(actionButton('pause', 'Pause', params, 'Pause only this partition'));
      }
      if (available.seek) {
        actions.appendChild(seekControl(route.routeId, p));
      }
      if (p.oldestUnfinished && available.park) {
        actions.appendChild(actionButton('park', 'Park ' + p.oldestUnfinished.offset, {
          route: route.routeId, topic: p.topic, partition: p.partition, offset: p.oldestUnfinished.offset
        }, 'Dead-letter this record now with reason parked'));
      }
      tr.appendChild(actions);
      table.appendChild(tr);
    });
    box.appendChild(table);
    return box;
  }

  function render(data) {
    var now = Date.now();
    var main = document.getElementById('routes');
    var fresh = document.createDocumentFragment(); // built aside, swapped in at once
    (data.routes || []).forEach(function (route) {
      var section = el('section', { 'class': 'route', 'data-route': route.routeId });
      section.appendChild(el('h2', null, 'Route ' + route.routeId + ' (' + route.consumerStatus + ')'));
      section.appendChild(el('div', { 'class': 'endpoint' }, route.endpointUri));
      if (route.operatorPausedPartitions) {
        section.appendChild(el('div', { 'class': 'operator-paused' }, 'paused by an operator: '
          + route.operatorPausedPartitions));
      }
      (route.tasks || []).forEach(function (task) { section.appendChild(renderTask(route, task, now)); });
      fresh.appendChild(section);
    });
    while (main.firstChild) {
      main.removeChild(main.firstChild);
    }
    main.appendChild(fresh);
    document.getElementById('status').textContent = 'updated ' + new Date(now).toLocaleTimeString();
  }

  function refresh() {
    var focused = document.activeElement;
    if (busy || (focused && focused.className === 'seek-offset')) {
      return; // the operator is typing an offset: the next refresh renders
    }
    busy = true;
    request('GET', CONSOLE_URL, null, function (status, json) {
      busy = false;
      if (status !== 200) {
        document.getElementById('status').textContent = 'console unavailable (HTTP ' + status + ')';
        return;
      }
      render(json);
    });
  }

  loadActions();
  setInterval(refresh, REFRESH_MS);
}());
