/// The review view's files that `check --output` writes beside `index.html`: `review.js` (side by side, swipe
/// slider, flicker and zoom on the differing region for each failed case) and `review.css`. These literals are
/// their one copy: `scripts/lint-web` copies them out as the command writes them and lints them (ESLint, the Nu Html
/// Checker), so they are kept here rather than in a resource bundle the `backdrop` binary would need beside it.
/// `backdrop review --serve` serves the same two files to its page, which uses review.js's `element`.
package enum GoldenReviewPage {
    /// `review.js`.
    package static let script = ##"""
        // The review view of a `backdrop check --output` page: for each failed case (a div.viewer naming its expected,
        // actual and diff pictures and the box around the differing pixels), four ways to look at the two pictures:
        // side by side, a swipe slider, a flicker between them, and a zoom on the differing region.
        // The page's address may choose the first view and the slider's position: index.html#swipe=0.25.
        'use strict';

        // A new element with its class and text; the review server's page (review-page.js, loaded after this
        // script) builds its cases with it too.
        function element(tag, className, text) {
            const node = document.createElement(tag);
            if (className) {
                node.className = className;
            }
            if (text) {
                node.textContent = text;
            }
            return node;
        }

        function picture(src, alt) {
            const image = element('img');
            image.src = src;
            image.alt = alt;
            return image;
        }

        // The view's mode and slider position from the address: #side, #swipe=0.3, #flicker or #zoom.
        function requested() {
            const match = /^#(side|swipe|flicker|zoom)(?:=([0-9.]+))?$/.exec(location.hash);
            const position = match && match[2] !== undefined ? Math.min(1, Math.max(0, Number(match[2]))) : 0.5;
            return {mode: match ? match[1] : 'side', position: position};
        }

        function setUp(viewer) {
            const data = viewer.dataset;
            const modes = element('p', 'modes');
            const stage = element('div', 'stage');
            const slider = element('input', 'slider');
            slider.type = 'range';
            slider.min = '0';
            slider.max = '1000';
            slider.setAttribute('aria-label', 'swipe position');
            viewer.append(modes, stage, slider);
            let timer = null;

            function swipeTo(fraction) {
                const top = stage.querySelector('.top');
                if (top) {
                    top.style.clipPath = 'inset(0 0 0 ' + (fraction * 100).toFixed(1) + '%)';
                    viewer.dataset.swipe = fraction.toFixed(3);
                }
            }

            function show(mode, position) {
                clearInterval(timer);
                stage.textContent = '';
                stage.className = 'stage ' + mode;
                slider.style.display = mode === 'swipe' ? '' : 'none';
                viewer.dataset.mode = mode;
                if (mode === 'side') {
                    stage.append(picture(data.expected, 'expected'), picture(data.actual, 'actual'));
                    if (data.diff) {
                        stage.append(picture(data.diff, 'diff'));
                    }
                } else if (mode === 'swipe') {
                    const bottom = picture(data.expected, 'expected');
                    const top = picture(data.actual, 'actual');
                    top.className = 'top';
                    stage.append(bottom, top);
                    slider.value = String(Math.round(position * 1000));
                    swipeTo(position);
                } else if (mode === 'flicker') {
                    const top = picture(data.actual, 'actual');
                    top.className = 'top';
                    stage.append(picture(data.expected, 'expected'), top);
                    timer = setInterval(() => {
                        top.style.visibility = top.style.visibility === 'hidden' ? '' : 'hidden';
                    }, 500);
                } else {
                    zoom();
                }
            }

            // The differing region, with a margin, scaled up in both pictures, pixels kept square.
            function zoom() {
                const box = (data.box || '').split(',').map(Number);
                if (box.length !== 4) {
                    stage.append(element('p', null, 'No differing pixels to zoom on.'));
                    return;
                }
                const [x, y, w, h] = box;
                const margin = 8;
                const side = Math.max(w, h) + 2 * margin;
                const scale = Math.max(1, Math.floor(480 / side));
                for (const [src, label] of [[data.expected, 'expected'], [data.actual, 'actual']]) {
                    const frame = element('div', 'zoom-frame');
                    frame.style.width = frame.style.height = side * scale + 'px';
                    const image = picture(src, label + ', zoomed');
                    image.style.transform = 'scale(' + scale + ')';
                    image.style.left = -(x - margin) * scale + 'px';
                    image.style.top = -(y - margin) * scale + 'px';
                    frame.append(image, element('span', 'label', label));
                    stage.append(frame);
                }
            }

            for (const [mode, label] of [['side', 'side by side'], ['swipe', 'swipe'], ['flicker', 'flicker'],
                ['zoom', 'zoom on the difference']]) {
                const button = element('button', null, label);
                button.type = 'button';
                button.addEventListener('click', () => show(mode, 0.5));
                modes.append(button);
            }
            slider.addEventListener('input', () => swipeTo(Number(slider.value) / 1000));
            const start = requested();
            show(start.mode, start.position);
        }

        document.addEventListener('DOMContentLoaded', () => {
            for (const viewer of document.querySelectorAll('.viewer')) {
                setUp(viewer);
            }
        });

        """##

    /// `review.css`.
    package static let styleSheet = ##"""
        /* The review view of a `backdrop check --output` page (review.js). */
        .viewer { margin: 8px 0 24px; }
        .viewer .modes button { margin-right: 6px; }
        .viewer .stage { position: relative; display: flex; gap: 8px; flex-wrap: wrap; align-items: flex-start; }
        .viewer .stage img { image-rendering: pixelated; }
        .viewer .stage.swipe, .viewer .stage.flicker { display: inline-block; }
        .viewer .stage.swipe img, .viewer .stage.flicker img { display: block; }
        .viewer .stage.swipe .top, .viewer .stage.flicker .top { position: absolute; left: 0; top: 0; }
        .viewer .slider { width: 100%; max-width: 600px; display: block; }
        .viewer .zoom-frame { position: relative; overflow: hidden; border: 1px solid #999; }
        .viewer .zoom-frame img { position: absolute; transform-origin: 0 0; max-width: none; }
        .viewer .zoom-frame .label { position: absolute; left: 4px; bottom: 4px; background: #fff; font-size: 12px; }

        """##
}
