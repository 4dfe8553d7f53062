// The review page that `backdrop review DIR --serve` serves: each failed case (name, figures, the limits it broke)
// with a div.viewer that review.js turns into its views, an accept button per case, a filter on the names and a
// button that accepts every case shown that is not accepted yet. The cases are built here with review.js's
// element(), loaded before this script, and its views set up when the document has loaded. Accepting posts to
// /accept; a case accepted (now, or before the page was loaded: CONFIG.accepted) gets data-accepted="yes", its
// button disabled and its paths beside it; a refusal gets its error there.
/* global CONFIG, $, failure, element */
'use strict';

// Posts `body` to /accept; the paths written, or throws the server's one-line error.
async function accept(body) {
    const response = await fetch('/accept', {
        method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body),
    });
    if (!response.ok) {
        throw new Error(await failure(response));
    }
    return (await response.json()).written;
}

const sections = [];

// The count of cases still failing and accepted, above the filter.
function summarize() {
    const accepted = sections.filter(section => section.dataset.accepted === 'yes').length;
    const failing = sections.length - accepted;
    $('summary').textContent = sections.length + ' failed case' + (sections.length === 1 ? '' : 's') + ': ' +
        failing + ' still failing, ' + accepted + ' accepted' +
        (CONFIG.into ? '; accepted goldens go under ' + CONFIG.into : '; accepted goldens replace the old ones');
}

// A case shown as accepted, with `text` beside it.
function markAccepted(section, text) {
    section.dataset.accepted = 'yes';
    section.querySelector('button.accept').disabled = true;
    const status = section.querySelector('.status');
    status.className = 'status';
    status.textContent = text;
}

// What a press does: the request, then the result or the error in `status` and on the cases accepted.
async function pressed(body, status, accepted) {
    status.className = 'status';
    status.textContent = 'accepting…';
    try {
        const written = await accept(body);
        for (const section of accepted) {
            markAccepted(section, 'accepted');
        }
        status.textContent = 'written: ' + written.join(', ');
        summarize();
    } catch (error) {
        status.className = 'status error';
        status.textContent = error.message;
    }
}

for (const item of CONFIG.cases) {
    const section = element('section', 'case');
    section.dataset.name = item.name;
    section.append(element('h2', null, item.name), element('p', 'figures', item.message));
    if (item.failedLimits.length > 0) {
        section.append(element('p', 'limits', 'failed: ' + item.failedLimits.join(', ')));
    }
    const viewer = element('div', 'viewer');
    viewer.dataset.expected = item.expected;
    viewer.dataset.actual = item.actual;
    if (item.diff) {
        viewer.dataset.diff = item.diff;
    }
    if (item.box) {
        viewer.dataset.box = item.box;
    }
    const button = element('button', 'accept', 'accept as the new golden');
    button.type = 'button';
    const status = element('span', 'status');
    button.addEventListener('click', () => pressed({names: [item.name]}, status, [section]));
    section.append(viewer, button, status);
    $('cases').append(section);
    sections.push(section);
    if ((CONFIG.accepted || []).includes(item.name)) {
        markAccepted(section, 'accepted');
    }
}
// The failed budget and cost cases: each device's line, and an accept button where a cost golden moved (a case that
// only missed its budget has nothing to accept: its scene must change).
for (const item of CONFIG.costCases || []) {
    const section = element('section', 'case cost');
    section.dataset.name = item.name;
    section.append(element('h2', null, item.name), element('p', 'figures', item.message));
    const list = element('ul', 'devices');
    for (const device of item.devices) {
        const line = element('li', device.status, device.status + ' [' + device.device + ']: ' + device.message);
        list.append(line);
    }
    section.append(list);
    const status = element('span', 'status');
    if (item.acceptable) {
        const button = element('button', 'accept', 'accept as the new cost golden');
        button.type = 'button';
        button.addEventListener('click', () => pressed({names: [item.name]}, status, [section]));
        section.append(button, status);
        sections.push(section);
        if ((CONFIG.accepted || []).includes(item.name)) {
            markAccepted(section, 'accepted');
        }
    } else {
        section.append(element('p', 'status', 'missed its budget: nothing to accept, the scene must change'));
    }
    $('cases').append(section);
}
summarize();

$('filter').addEventListener('input', () => {
    const text = $('filter').value.toLowerCase();
    for (const section of document.querySelectorAll('#cases section.case')) {
        section.hidden = !section.dataset.name.toLowerCase().includes(text);
    }
});

$('accept-all').addEventListener('click', () => {
    const shown = sections.filter(section => !section.hidden && section.dataset.accepted !== 'yes');
    if (shown.length === 0) {
        $('all-status').className = 'status';
        $('all-status').textContent = 'no case shown is left to accept';
        return;
    }
    pressed({names: shown.map(section => section.dataset.name)}, $('all-status'), shown);
});
