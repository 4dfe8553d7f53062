#!/usr/bin/env python3
"""`backdrop compare` against pixelmatch and scikit-image on the same 12-megapixel pair, in one run.

    python3 Benchmarks/compare-side-by-side.py --pixelmatch node_modules/pixelmatch [--runs N]

`--pixelmatch` is pixelmatch's package folder (7.2.0 is the version the tests match) with pngjs where node finds it
(`npm install pixelmatch@7.2.0`, or both repositories' files checked out into a `node_modules` folder).

The pair is the Compare benchmark's (Benchmarks/Benchmarks/Compare): the wallpaper tiled to 4000×3000, and the same
with every 7th pixel's red moved by 9 and a 300×200 block's green set to 0, written as two PNGs (level 1).

What it times, medians of N runs after one warm-up:
- `backdrop compare A B`, with `--min-ssim 0.5` and with `--threshold 0.1`, as whole processes (both PNGs decoded),
  with their peak resident memory (the largest over the runs, by GNU time: a child forked from this Python process
  would report the parent's size);
- pixelmatch's own command (`node bin/pixelmatch A B`: pngjs decodes, pixelmatch counts at its default threshold
  0.1) as a whole process, and its call alone in process on the two pictures' raw RGBA;
- scikit-image's `structural_similarity` on the same luma, Gaussian window σ 1.5 (the SSIM Backdrop reproduces),
  in process, decoding excluded.
Writes nothing but a temporary folder (removed) and its table on standard output.
"""
import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WALLPAPER = ROOT / "Tests/Fixtures/photos/wallpaper-2048x1536.png"
BACKDROP = ROOT / ".build/release/backdrop"
WIDTH, HEIGHT = 4000, 3000

NODE_SCRIPT = r"""
import { readFileSync } from 'node:fs';
const [pixelmatchPath, aPath, bPath, width, height, runs] = process.argv.slice(2);
const { default: pixelmatch } = await import(pixelmatchPath);
const a = readFileSync(aPath), b = readFileSync(bPath);
const w = Number(width), h = Number(height);
const times = []; let count = 0;
for (let i = 0; i <= Number(runs); i++) {
  const start = process.hrtime.bigint();
  count = pixelmatch(a, b, null, w, h, { threshold: 0.1 });
  if (i > 0) times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
times.sort((x, y) => x - y);
console.log(JSON.stringify({ count, median: times[Math.floor(times.length / 2)] }));
"""


def median(values):
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def whole_process(arguments, runs, ok_codes=(0, 1)):
    """Median wall seconds and the largest peak resident memory (MB) of a command, after one warm-up run."""
    times, peak = [], 0
    for index in range(runs + 1):
        with tempfile.NamedTemporaryFile(mode="r") as report:
            start = time.perf_counter()
            process = subprocess.run(["/usr/bin/time", "-q", "-f", "%M", "-o", report.name]
                                     + [str(a) for a in arguments], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
            elapsed = time.perf_counter() - start
            if process.returncode not in ok_codes:
                sys.exit(f"{arguments[0]} exited {process.returncode}: {process.stderr.strip()}")
            kilobytes = int(report.read().split()[-1])
        if index > 0:
            times.append(elapsed)
            peak = max(peak, kilobytes / 1024)
    return median(times), peak


def make_pair(folder):
    import numpy
    from PIL import Image
    source = numpy.asarray(Image.open(WALLPAPER).convert("RGBA"))
    rows = numpy.tile(source, ((HEIGHT + source.shape[0] - 1) // source.shape[0],
                               (WIDTH + source.shape[1] - 1) // source.shape[1], 1))[:HEIGHT, :WIDTH]
    expected = numpy.ascontiguousarray(rows)
    flat = expected.reshape(-1).copy()
    flat[0::28] = (flat[0::28].astype(numpy.uint16) + 9).astype(numpy.uint8)
    actual = flat.reshape(HEIGHT, WIDTH, 4)
    actual[1000:1200, 2000:2300, 1] = 0
    paths = {}
    for name, picture in (("a", expected), ("b", actual)):
        Image.fromarray(picture, "RGBA").save(folder / f"{name}.png", compress_level=1)
        (folder / f"{name}.rgba").write_bytes(picture.tobytes())
        paths[name] = picture
    return paths


def scikit_ssim(expected, actual, runs):
    import numpy
    from skimage.metrics import structural_similarity

    def luma(picture):
        rgb = picture[..., :3].astype(numpy.float64)
        return rgb @ numpy.array([0.299, 0.587, 0.114])

    def once():
        return structural_similarity(luma(expected), luma(actual), gaussian_weights=True, sigma=1.5,
                                     use_sample_covariance=False, data_range=255)

    once()
    times, value = [], 0.0
    for _ in range(runs):
        start = time.perf_counter()
        value = once()
        times.append(time.perf_counter() - start)
    return median(times), value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pixelmatch", required=True, help="pixelmatch's index.js (version 7.2.0)")
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    if not BACKDROP.exists():
        sys.exit(f"{BACKDROP} is missing: run `swift build -c release` first")
    if shutil.which("node") is None:
        sys.exit("node is missing")
    folder = Path(tempfile.mkdtemp(prefix="compare-side-by-side."))
    try:
        pictures = make_pair(folder)
        a, b = folder / "a.png", folder / "b.png"
        ssim_time, ssim_peak = whole_process([BACKDROP, "compare", a, b, "--min-ssim", "0.5"], options.runs)
        rule_time, rule_peak = whole_process([BACKDROP, "compare", a, b, "--threshold", "0.1"], options.runs)
        plain_time, plain_peak = whole_process([BACKDROP, "compare", a, b], options.runs)
        script = folder / "pixelmatch-time.mjs"
        script.write_text(NODE_SCRIPT)
        package = Path(options.pixelmatch).resolve()
        node_arguments = ["node", script, (package / "index.js").as_uri(),
                          folder / "a.rgba", folder / "b.rgba", WIDTH, HEIGHT, options.runs]
        node_out = subprocess.run([str(x) for x in node_arguments], check=True, capture_output=True, text=True)
        import json
        node = json.loads(node_out.stdout)
        node_whole, node_peak = whole_process(["node", package / "bin/pixelmatch", a, b], options.runs,
                                              ok_codes=(0, 66))  # 66: "the pictures differ"
        ours = subprocess.run([str(BACKDROP), "compare", a, b, "--threshold", "0.1", "--format", "json"],
                              capture_output=True, text=True)
        our_count = json.loads(ours.stdout).get("differingPixels")
        sk_time, sk_value = scikit_ssim(pictures["a"], pictures["b"], max(1, options.runs // 2))
        ssim_out = subprocess.run([str(BACKDROP), "compare", a, b, "--min-ssim", "0.5", "--format", "json"],
                                  capture_output=True, text=True)
        our_ssim = json.loads(ssim_out.stdout).get("ssim")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    decoded_mb = 2 * WIDTH * HEIGHT * 4 / 1e6
    print(f"# compare side by side: {WIDTH}×{HEIGHT} pair, {platform.machine()}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}, medians of {options.runs}")
    print()
    print("| what | wall | peak memory | result |")
    print("|---|---|---|---|")
    print(f"| `backdrop compare A B` (PSNR, counts; whole process) | {plain_time:.3f} s | {plain_peak:.0f} MB | |")
    print(f"| `backdrop compare A B --min-ssim 0.5` (whole process) | {ssim_time:.3f} s | {ssim_peak:.0f} MB "
          f"(pictures {decoded_mb:.0f} MB) | SSIM {our_ssim} |")
    print(f"| scikit-image `structural_similarity`, in process | {sk_time:.3f} s | | SSIM {sk_value:.9f} |")
    print(f"| `backdrop compare A B --threshold 0.1` (whole process) | {rule_time:.3f} s | {rule_peak:.0f} MB "
          f"| {our_count} pixels |")
    print(f"| pixelmatch under node, its call alone | {node['median'] / 1000:.3f} s | | {node['count']} pixels |")
    print(f"| `node bin/pixelmatch A B` (pngjs decodes; whole process) | {node_whole:.3f} s "
          f"| {node_peak:.0f} MB | |")


if __name__ == "__main__":
    main()
