// What both pages share: the config the server writes into the page, the element lookup, a script error kept on the
// body (the browser tests read document.body.dataset.error), and an API error's message.
/* exported CONFIG, $, failure */
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
