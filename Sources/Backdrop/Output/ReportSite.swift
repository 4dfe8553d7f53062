import Foundation

/// The device budget atlas as a static site: `index.html` (inline CSS, pictures as files beside it), a Markdown
/// `README.md` with the atlas table, charts, frame timelines and previews. Deterministic: the same input gives
/// the same bytes, so a committed copy can be checked for staleness.
public struct ReportSite: Sendable {
    /// One file of the site: its path inside the site's folder and its bytes.
    public struct File: Sendable {
        public let path: String
        public let bytes: [UInt8]
    }

    /// The picture the previews are rendered over.
    public let input: RGBAImage<UInt8>
    /// How the input is named in the report.
    public let inputName: String
    /// The renderer for the previews.
    public let renderer: Renderer
    /// The pricing.
    public let estimator: Estimator

    /// A report over `input`.
    public init(input: RGBAImage<UInt8>, inputName: String, renderer: Renderer = Renderer(), estimator: Estimator = Estimator()) {
        self.input = input
        self.inputName = inputName
        self.renderer = renderer
        self.estimator = estimator
    }

    /// Every device × style × (without, with vibrancy), full screen, on the path the model chooses.
    public func atlas() -> [Estimate] {
        Device.all.flatMap { device in
            BlurStyle.builtIn.flatMap { style in
                [false, true].map { vibrancy in
                    try! estimator.estimate(device: device, style: style, vibrancy: vibrancy)
                }
            }
        }
    }

    /// The seed figure an atlas row reproduces, if any (same device, style, vibrancy and path).
    func seed(for estimate: Estimate) -> SeedFigure? {
        SeedFigure.all.first {
            $0.deviceID == estimate.device.id && $0.style.name == estimate.style.name
                && $0.vibrancy == estimate.vibrancy && $0.path == estimate.path
        }
    }

    /// What a device shows: its scale and its path. Devices that share both share a preview.
    struct PreviewKey: Hashable, Comparable {
        let scale: Double
        let path: Effect.Path
        var tag: String { "s\(Int(scale))-\(path.rawValue)" }
        static func < (a: PreviewKey, b: PreviewKey) -> Bool { a.tag < b.tag }
    }

    /// The preview `device` shows: its scale, and the path the model chooses for it.
    func previewKey(_ device: Device) -> PreviewKey {
        PreviewKey(scale: device.scale, path: estimator.decision(for: device).path)
    }

    /// Makes every file; `step` is told the name of each as it is made.
    public func files(step: (String) -> Void = { _ in }) throws(BackdropError) -> [File] {
        var files: [File] = []
        func add(_ path: String, _ text: String) {
            step(path)
            files.append(File(path: path, bytes: Array(text.utf8)))
        }
        let atlas = atlas()
        add("images/chart-blur.svg", BarChartSVG.render(atlas.filter { !$0.vibrancy },
                                                         title: "Full-screen effect, per device and style (predicted ms)"))
        add("images/chart-vibrancy.svg", BarChartSVG.render(atlas.filter(\.vibrancy),
                                                            title: "Full-screen effect with vibrancy, per device and style (predicted ms)"))
        for device in Device.all {
            let estimate = try estimator.estimate(device: device, style: .light, vibrancy: true)
            add("images/timeline-\(device.id).svg", TimelineSVG.render(estimate))
        }
        step("images/input.png")
        files.append(File(path: "images/input.png", bytes: try PNGEncoder().encode(input)))
        let keys = Set(Device.all.map(previewKey)).sorted()
        for key in keys {
            for style in BlurStyle.builtIn {
                let path = "images/preview-\(style.name)-\(key.tag).png"
                step(path)
                let picture = try renderer.render(input, effect: Effect(style: style, scale: key.scale, path: key.path))
                files.append(File(path: path, bytes: try PNGEncoder().encode(picture)))
            }
        }
        add("README.md", markdown(atlas))
        add("index.html", html(atlas))
        return files
    }

    func row(_ e: Estimate) -> [String] {
        let seed = seed(for: e).map { String(format: "%@: %.2f ms measured", $0.id, $0.ms) } ?? ""
        return [e.device.name, e.style.name, e.vibrancy ? "yes" : "no", String(format: "%.2f", e.totalMs),
                String(format: "%.0f %%", e.totalMs / Estimate.budgetMs * 100), e.verdict.rawValue, e.path.rawValue,
                e.decision.applePolicy.rawValue + (e.decision.agreesWithApple ? "" : " (differs)"), seed]
    }

    static let header = ["device", "style", "vibrancy", "predicted ms", "of the frame", "verdict", "path",
                         "Apple iOS 7", "seed figure"]

    func markdown(_ atlas: [Estimate]) -> String {
        var lines = ["# Device budget atlas", "",
                     "Made by `backdrop report` over \(inputName). Every figure is a **prediction** of Backdrop's GPU cost model "
                        + "(full screen, on the path the model chooses for the device), except the seed figures, which Apple measured. "
                        + "Open `index.html` for the charts, the frame timelines and the previews.", "",
                     "| " + Self.header.joined(separator: " | ") + " |",
                     "|" + Self.header.map { _ in "---" }.joined(separator: "|") + "|"]
        lines += atlas.map { "| " + row($0).joined(separator: " | ") + " |" }
        lines += ["", "Seed figures (measured by Apple) against the model:", "",
                  "| seed | device | effect | path | measured ms | predicted ms |", "|---|---|---|---|---|---|"]
        for seed in SeedFigure.all + [SeedFigure.v3Reading] {
            lines.append(String(format: "| %@ | %@ | %@%@ | %@ | %.2f | %.2f%@ |", seed.id, seed.device.name, seed.style.name,
                                seed.vibrancy ? " + vibrancy" : "", seed.path.rawValue, seed.ms,
                                seed.predictedMs(by: estimator.model),
                                seed.usedInFit ? "" : seed.id == "V3" ? " (our reading, not fitted)" : " (held out of the fit)"))
        }
        lines += ["", "Decisions that differ from Apple's:", ""]
        for device in Device.all {
            let decision = estimator.decision(for: device)
            if !decision.agreesWithApple { lines.append("- \(device.name): \(decision.reason)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func html(_ atlas: [Estimate]) -> String {
        func escaped(_ s: String) -> String { TimelineSVG.escaped(s) }
        var body: [String] = []
        body.append("<h1>Device budget atlas</h1>")
        body.append("<p>Over <code>\(escaped(inputName))</code>. Every figure is a <strong>prediction</strong> of Backdrop's GPU cost model, full screen, on the path the model chooses for each device; the seed figures are Apple's measurements.</p>")
        body.append("<h2>Budget per device, style and vibrancy</h2><table><thead><tr>" + Self.header.map { "<th>\(escaped($0))</th>" }.joined() + "</tr></thead><tbody>")
        for e in atlas {
            let cells = row(e).map { "<td>\(escaped($0))</td>" }.joined()
            let verdictClass = e.verdict == .dropsFrames ? "drops" : e.verdict == .tight ? "tight" : "fits"
            body.append("<tr class=\"\(verdictClass)\">\(cells)</tr>")
        }
        body.append("</tbody></table>")
        body.append("<h2>Full-screen cost per device</h2>")
        body.append("<img src=\"images/chart-blur.svg\" alt=\"bar chart of the full-screen cost per device and style\">")
        body.append("<img src=\"images/chart-vibrancy.svg\" alt=\"bar chart of the full-screen cost with vibrancy per device and style\">")
        body.append("<h2>One frame per device (light, full-screen vibrancy)</h2>")
        for device in Device.all {
            body.append("<figure><img src=\"images/timeline-\(device.id).svg\" alt=\"frame timeline of the \(escaped(device.name))\"></figure>")
        }
        body.append("<h2>What each device shows</h2><p>Over <code>\(escaped(inputName))</code> (left), each style at the device's scale, blurred or as its tint-only fallback.</p>")
        body.append("<div class=\"grid\"><figure><img src=\"images/input.png\" alt=\"the input\"><figcaption>input</figcaption></figure></div>")
        body.append("<table class=\"previews\"><thead><tr><th>device</th>" + BlurStyle.builtIn.map { "<th>\($0.name)</th>" }.joined() + "</tr></thead><tbody>")
        for device in Device.all {
            let key = previewKey(device)
            let cells = BlurStyle.builtIn.map {
                "<td><img src=\"images/preview-\($0.name)-\(key.tag).png\" alt=\"\(escaped(device.name)), \($0.name)\"></td>"
            }.joined()
            body.append("<tr><th>\(escaped(device.name))<br><small>scale \(Int(device.scale)), \(key.path.rawValue)</small></th>\(cells)</tr>")
        }
        body.append("</tbody></table>")
        let style = """
        body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1100px}
        table{border-collapse:collapse;font-size:12px;margin-bottom:16px}th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left}
        tr.drops td:nth-child(6){color:#c0392b;font-weight:bold}tr.tight td:nth-child(6){color:#b9770e}tr.fits td:nth-child(6){color:#1e8449}
        img{max-width:100%}figure{margin:8px 0}.previews img{width:240px}.grid img{width:240px}
        """
        // Marks the page when every picture has loaded (read by the browser check, scripts/check-report).
        let script = """
        window.addEventListener('load',function(){var i=document.images,b=[];for(var k=0;k<i.length;k++){if(!i[k].complete||i[k].naturalWidth===0)b.push(i[k].getAttribute('src'));}document.body.setAttribute('data-images',i.length);document.body.setAttribute('data-broken',b.join(' '));document.body.setAttribute('data-loaded','yes');});
        """
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Backdrop device budget atlas</title><style>\(style)</style><script>\(script)</script></head><body>\n"
            + body.joined(separator: "\n") + "\n</body></html>\n"
    }
}
