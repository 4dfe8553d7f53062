// What both pages share: the config the server writes into the page, the element lookup, a script error kept on the
// body (the browser tests read document.body.dataset.error), an API error's message, and the side-by-side view's
// device checkboxes.
/* exported CONFIG, $, failure, deviceCheckboxes */
'use strict';

const $ = id => document.getElementById(id);
// The devices, styles, scenes and overlays the server offers, as JSON in the page's config block.
const CONFIG = JSON.parse($('config').textContent);

addEventListener('error', e => {
    document.body.dataset.error = String(e.message);
});
addEventListener('unhandledrejection', e => {
    document.body.dataset.error = String(e.reason);
});

// The API's one-line error for a failed response, or its HTTP status when the body is not the API's JSON.
async function failure(response) {
    try {
        return (await response.json()).error;
    } catch (e) {
        return 'HTTP ' + response.status;
    }
}

// One checkbox per device in #compare-devices, under its group's title (iPhone, PowerVR GPU …: the server's groups,
// in its order); after each change, `chosen` gets the ticked ids joined by commas.
function deviceCheckboxes(chosen) {
    const groups = new Map();
    CONFIG.devices.forEach(d => {
        if (!groups.has(d.group)) {
            const fieldset = document.createElement('fieldset'), legend = document.createElement('legend');
            legend.textContent = d.group;
            fieldset.append(legend);
            $('compare-devices').append(fieldset);
            groups.set(d.group, fieldset);
        }
        const label = document.createElement('label'), box = document.createElement('input');
        box.type = 'checkbox';
        box.value = d.id;
        box.id = 'compare-' + d.id;
        box.addEventListener('change', () => {
            chosen([...$('compare-devices').querySelectorAll('input')].filter(b => b.checked)
                .map(b => b.value).join(','));
        });
        label.append(box, ' ' + d.name);
        groups.get(d.group).append(label);
    });
}
