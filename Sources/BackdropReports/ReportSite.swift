import BackdropCalibration
import BackdropImageIO
import BackdropRendering
import BackdropScenes
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
    public init(
        input: RGBAImage<UInt8>, inputName: String, renderer: Renderer = Renderer(), estimator: Estimator = Estimator()
    ) {
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
        add(
            "images/chart-blur.svg",
            BarChartSVG.render(
                atlas.filter { !$0.vibrancy },
                title: "Full-screen effect, per device and style (predicted ms)"))
        add(
            "images/chart-vibrancy.svg",
            BarChartSVG.render(
                atlas.filter(\.vibrancy),
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
        add("cost-model.txt", CostModelReport.text(estimator.model))
        add("images/model-fit.svg", ModelFitSVG.render(estimator.model))
        let cases = caseStudies()
        for (scene, estimate) in cases where estimate.device.id == Self.timelineDevice {
            add("images/scene-\(scene.name).svg", TimelineSVG.render(estimate))
            // The screen the model priced, and which of its layers go offscreen, from the same planner.
            let path = estimate.path
            let (picture, drawing) = try ScenePicture(device: estimate.device, parallelism: renderer.parallelism)
                .draw(scene, path: path)
            let overlaid = SceneOverlay.offscreen.applied(
                to: picture.image, drawing: drawing, imageSizes: picture.imageSizes, parallelism: renderer.parallelism)
            for (suffix, image) in [("", picture.image), ("-offscreen", overlaid)] {
                let name = "images/scene-\(scene.name)\(suffix).png"
                step(name)
                files.append(File(path: name, bytes: try PNGEncoder().encode(image)))
            }
        }
        for (scene, device, run) in try runs() {
            add("images/run-\(scene.name)-\(device.id).svg", FrameRunSVG.render(run))
        }
        add("README.md", markdown(atlas, cases))
        add("index.html", html(atlas, cases))
        return files
    }

    /// The devices whose runs of each built-in scene the report charts: the talk's three of O5 and O6.
    static let runDevices = ["iphone-4s", "ipod-touch-5", "iphone-5s"]
    /// How long each run lasts and how fast its scrolling layers move (a brisk flick, points a second).
    static let runSeconds = 2.0, runScroll = 480.0

    /// Every built-in scene run over time on ``runDevices`` (scenes without scrolling layers at rest).
    func runs() throws(BackdropError) -> [(Scene, Device, SceneRun)] {
        var runs: [(Scene, Device, SceneRun)] = []
        for scene in BuiltInScenes.all {
            for id in Self.runDevices {
                let device = Device.named(id)!
                let run = try SceneRun(
                    scene: scene, device: device, durationSeconds: Self.runSeconds,
                    scrollPointsPerSecond: Self.scrolls(scene.layers) ? Self.runScroll : 0,
                    path: .auto, model: estimator.model)
                runs.append((scene, device, run))
            }
        }
        return runs
    }

    static func scrolls(_ layers: [SceneLayer]) -> Bool { layers.contains { $0.scrolls || scrolls($0.sublayers) } }

    /// The device whose frame of each built-in scene the report draws (the talk's iPod touch of O5 and O6).
    static let timelineDevice = "ipod-touch-5"

    /// Every built-in scene on every device, in listing order.
    public func caseStudies() -> [(Scene, SceneEstimate)] {
        BuiltInScenes.all.flatMap { scene in
            Device.all.map { device in (scene, try! estimator.estimate(scene: scene, device: device)) }
        }
    }

    /// The atlas cell of one estimate: predicted ms with its 80 % range, the path, and the seed's measurement where
    /// there is one.
    func cell(_ e: Estimate) -> String {
        let range = e.frame.ranges().totalMs
        var text = String(format: "%.2f ms (%.1f–%.1f)", e.totalMs, range[0], range[1])
        if e.path == .tintOnly { text += " (tint-only)" }
        if let seed = SeedFigure.measuring(e) {
            text += " · measured " + seed.comparison(with: e.totalMs) + (seed.usedInFit ? "" : ", our reading")
        }
        return text
    }

    /// The atlas as a matrix: a row per device, a column per style.
    func matrix(_ atlas: [Estimate], vibrancy: Bool) -> [(Device, [Estimate])] {
        Device.all.map { device in
            (device, atlas.filter { $0.device.id == device.id && $0.vibrancy == vibrancy })
        }
    }

    /// The talk's figures for a scene on a device, where the case-study table has a row.
    func talk(_ scene: Scene, _ device: Device) -> String {
        CaseStudy.all.first { $0.sceneName == scene.name && $0.deviceID == device.id }?.measurementText ?? ""
    }

    /// A scene's cell: fps (with its 80 % range where it spans more than one) · GPU % · offscreen passes, and the
    /// talk's figures where it measured the screen.
    func sceneCell(_ scene: Scene, _ e: SceneEstimate) -> String {
        let talk = talk(scene, e.device)
        let frame = e.tableFrame
        let fps = frame.ranges().fps
        let fpsText =
            Int(fps[0].rounded()) == Int(fps[1].rounded())
            ? String(format: "%.0f fps", frame.fps) : String(format: "%.0f fps (%.0f–%.0f)", frame.fps, fps[0], fps[1])
        return fpsText + String(format: " · %.0f %% · %d", frame.gpuPercent, frame.offscreenPasses)
            + (scene.redraw == .static ? " (first frame)" : "") + (talk.isEmpty ? "" : " (\(talk))")
    }

    func markdown(_ atlas: [Estimate], _ cases: [(Scene, SceneEstimate)]) -> String {
        var lines = [
            "# Device budget atlas", "",
            "Made by `backdrop report` over \(inputName). Every ms, fps and GPU % here is a **prediction** of Backdrop's GPU cost model "
                + "([cost-model.txt](cost-model.txt)); only the seed figures marked \"measured\" are Apple's measurements. "
                + "Full-screen effects, on the path the model chooses for the device. Each cell: the predicted "
                + "milliseconds of GPU time a frame, the range the true figure lies in 4 times in 5 (the 80 % range) in "
                + "brackets, tint-only where the device draws the tint alone, and whether it fits the 16.67 ms frame. "
                + "Open `index.html` for the colours, the charts, the frame timelines and the previews.", "",
            "![The model against every published figure](images/model-fit.svg)", "",
        ]
        for vibrancy in [false, true] {
            lines += [
                "## Full-screen effect\(vibrancy ? " with vibrancy" : "") (predicted)", "",
                "| device | " + BlurStyle.builtIn.map(\.name).joined(separator: " | ") + " | Apple iOS 7 |",
                "|---|" + BlurStyle.builtIn.map { _ in "---" }.joined(separator: "|") + "|---|",
            ]
            for (device, estimates) in matrix(atlas, vibrancy: vibrancy) {
                let cells = estimates.map { "\(cell($0)), \($0.verdict.rawValue)" }
                let decision = estimates[0].decision
                lines.append(
                    "| \(device.name) | " + cells.joined(separator: " | ")
                        + " | \(decision.applePolicy.rawValue)\(decision.agreesWithApple ? "" : " (model: \(decision.path.rawValue))") |"
                )
            }
            lines.append("")
        }
        lines += [
            "## Whole screens: the built-in scenes (predicted fps with its 80 % range · GPU % · offscreen passes; the talk's measurement beside)",
            "",
            "| device | " + BuiltInScenes.names.joined(separator: " | ") + " |",
            "|---|" + BuiltInScenes.names.map { _ in "---" }.joined(separator: "|") + "|",
        ]
        for device in Device.all {
            let cells = cases.filter { $0.1.device.id == device.id }.map { sceneCell($0.0, $0.1) }
            lines.append("| \(device.name) | " + cells.joined(separator: " | ") + " |")
        }
        lines += [
            "",
            "Each scene on the \(Device.named(Self.timelineDevice)!.name) as `backdrop render --scene` draws it, "
                + "and with its offscreen layers in yellow (`--show offscreen`):", "",
        ]
        for (scene, e) in cases where e.device.id == Self.timelineDevice {
            lines.append(
                "<img src=\"images/scene-\(scene.name).png\" width=\"160\" alt=\"\(scene.name)\"> "
                    + "<img src=\"images/scene-\(scene.name)-offscreen.png\" width=\"160\" alt=\"\(scene.name), offscreen layers\">"
            )
        }
        lines += [
            "",
            "Over time (`backdrop estimate --duration \(Int(Self.runSeconds)) --scroll \(Int(Self.runScroll))`), on the iPod touch (5th generation):",
            "",
        ]
        for scene in BuiltInScenes.all {
            lines.append("![\(scene.name) over time](images/run-\(scene.name)-ipod-touch-5.svg)")
        }
        lines += ["", "Decisions that differ from Apple's:", ""]
        for device in Device.all {
            let decision = estimator.decision(for: device)
            if !decision.agreesWithApple { lines.append("- \(device.name): \(decision.reason)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func html(_ atlas: [Estimate], _ cases: [(Scene, SceneEstimate)]) -> String {
        func escaped(_ s: String) -> String { TimelineSVG.escaped(s) }
        func verdictClass(_ verdict: FrameTimeline.Verdict) -> String {
            verdict == .dropsFrames ? "drops" : verdict == .tight ? "tight" : "fits"
        }
        var body: [String] = []
        body.append("<h1>Device budget atlas</h1>")
        body.append(
            "<p>Over <code>\(escaped(inputName))</code>. Every ms, fps and GPU % is a <strong>prediction</strong> of Backdrop's GPU cost model (<a href=\"cost-model.txt\">its coefficients and checks</a>); only the seed figures marked “measured” are Apple's. Each cell: the predicted milliseconds of GPU time a frame, then in brackets the range the true figure lies in 4 times in 5 (the 80 % range); tint-only where the device draws the tint alone, no blur. Colour: <span class=\"fits\">fits</span> the 16.67 ms frame, <span class=\"tight\">tight</span> (under a quarter of the frame left), <span class=\"drops\">drops frames</span>.</p>"
        )
        for vibrancy in [false, true] {
            body.append(
                "<h2>Full-screen effect\(vibrancy ? " with vibrancy" : "") (predicted)</h2><table class=\"matrix\"><thead><tr><th>device</th>"
                    + BlurStyle.builtIn.map { "<th>\($0.name)</th>" }.joined()
                    + "<th>Apple iOS 7</th></tr></thead><tbody>")
            for (device, estimates) in matrix(atlas, vibrancy: vibrancy) {
                let cells = estimates.map {
                    "<td class=\"\(verdictClass($0.verdict))\" title=\"\($0.verdict.rawValue)\">\(escaped(cell($0)))</td>"
                }.joined()
                let decision = estimates[0].decision
                let apple =
                    decision.applePolicy.rawValue
                    + (decision.agreesWithApple ? "" : " (model: \(decision.path.rawValue))")
                body.append(
                    "<tr><th>\(escaped(device.name))\(device.hasSeedMeasurements ? " *" : "")</th>\(cells)<td>\(escaped(apple))</td></tr>"
                )
            }
            body.append("</tbody></table>")
        }
        body.append(
            "<p><small>* measured in the seed talk; every other device's figures are predictions only.</small></p>")
        body.append(
            "<h2>The model against every published figure</h2><p>Measured (grey: its range) against predicted (dot), fitted and held out; the table is <a href=\"cost-model.txt\">cost-model.txt</a>.</p><img src=\"images/model-fit.svg\" alt=\"Predicted against measured for every figure\" style=\"max-width:100%\">"
        )
        body.append("<h2>Whole screens: the built-in scenes (predicted, beside the talk's measurements)</h2>")
        body.append(
            "<p>Each cell: predicted fps (its 80 % range in brackets) · GPU % · offscreen passes a frame; where the talk measured the screen (seed O5, O6), its figures follow.</p>"
        )
        body.append(
            "<div class=\"wide\"><table class=\"matrix scenes\"><thead><tr><th>device</th>"
                + BuiltInScenes.names.map { "<th>\(escaped($0))</th>" }.joined() + "</tr></thead><tbody>")
        for device in Device.all {
            let cells = cases.filter { $0.1.device.id == device.id }.map { scene, e in
                "<td class=\"\(verdictClass(e.tableFrame.verdict))\">\(escaped(sceneCell(scene, e)))</td>"
            }.joined()
            body.append("<tr><th>\(escaped(device.name))</th>\(cells)</tr>")
        }
        body.append("</tbody></table></div>")
        body.append("<h2>One frame of each scene on the iPod touch (5th generation) (predicted)</h2>")
        for (scene, e) in cases where e.device.id == Self.timelineDevice {
            let name = escaped(scene.name)
            body.append(
                "<figure class=\"scene\"><figcaption>\(name): the screen (backdrop render --scene), its offscreen layers in yellow (--show offscreen), one frame's timeline</figcaption>"
                    + "<img class=\"screen\" src=\"images/scene-\(name).png\" alt=\"\(name) as drawn\">"
                    + "<img class=\"screen\" src=\"images/scene-\(name)-offscreen.png\" alt=\"\(name) with offscreen layers in yellow\">"
                    + "<img src=\"images/scene-\(name).svg\" alt=\"frame timeline of \(name)\"></figure>"
            )
        }
        body.append(
            "<h2>Over time: each scene for \(Int(Self.runSeconds)) s, its table scrolling \(Int(Self.runScroll)) pt/s (predicted)</h2>"
        )
        body.append(
            "<p>backdrop estimate --scene NAME --device ID --duration \(Int(Self.runSeconds)) --scroll \(Int(Self.runScroll)): each frame's GPU time against the 16.67 ms line, dropped frames as red ticks.</p>"
        )
        for scene in BuiltInScenes.all {
            for id in Self.runDevices {
                let device = escaped(Device.named(id)?.name ?? id)
                body.append(
                    "<figure><figcaption>\(escaped(scene.name)) on the \(device) over \(Int(Self.runSeconds)) s</figcaption>"
                        + "<img src=\"images/run-\(escaped(scene.name))-\(id).svg\" alt=\"\(escaped(scene.name)) over time on the \(device)\"></figure>"
                )
            }
        }
        body.append("<h2>Full-screen cost per device</h2>")
        body.append(
            "<figure><figcaption>The full-screen effect, per device and style (predicted ms)</figcaption>"
                + "<img src=\"images/chart-blur.svg\" alt=\"bar chart of the full-screen cost per device and style\"></figure>"
        )
        body.append(
            "<figure><figcaption>The same with full-screen vibrancy</figcaption>"
                + "<img src=\"images/chart-vibrancy.svg\" alt=\"bar chart of the full-screen cost with vibrancy per device and style\"></figure>"
        )
        body.append("<h2>One frame per device (light, full-screen vibrancy)</h2>")
        for device in Device.all {
            body.append(
                "<figure><figcaption>\(escaped(device.name))</figcaption>"
                    + "<img src=\"images/timeline-\(device.id).svg\" alt=\"frame timeline of the \(escaped(device.name))\"></figure>"
            )
        }
        body.append(
            "<h2>What each device shows</h2><p>Over <code>\(escaped(inputName))</code> (left), each style at the device's scale, blurred or as its tint-only fallback.</p>"
        )
        body.append(
            "<div class=\"grid\"><figure><figcaption>input</figcaption><img src=\"images/input.png\" alt=\"the input\"></figure></div>"
        )
        body.append(
            "<table class=\"previews\"><thead><tr><th>device</th>"
                + BlurStyle.builtIn.map { "<th>\($0.name)</th>" }.joined() + "</tr></thead><tbody>")
        for device in Device.all {
            let key = previewKey(device)
            let cells = BlurStyle.builtIn.map {
                "<td><img src=\"images/preview-\($0.name)-\(key.tag).png\" alt=\"\(escaped(device.name)), \($0.name)\"></td>"
            }.joined()
            body.append(
                "<tr><th>\(escaped(device.name))<br><small>scale \(Int(device.scale)), \(key.path.rawValue)</small></th>\(cells)</tr>"
            )
        }
        body.append("</tbody></table>")
        let style = """
            body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1100px}
            table{border-collapse:collapse;font-size:12px;margin-bottom:16px}th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left}
            .drops{background:#fadbd8;color:#922b21}.tight{background:#fdebd0;color:#9a5d0e}.fits{background:#d5f5e3;color:#1e6b3c}
            .matrix td{white-space:nowrap}.scenes td{white-space:normal;min-width:9em}.wide{overflow-x:auto}.scene .screen{width:160px;margin-right:8px;vertical-align:top}
            img{max-width:100%}figure{margin:8px 0}.previews img{width:240px}.grid img{width:240px}
            """
        // Marks the page when every picture has loaded (read by the browser check, scripts/check-report).
        let script = """
            window.addEventListener('load',function(){var i=document.images,b=[];for(var k=0;k<i.length;k++){if(!i[k].complete||i[k].naturalWidth===0)b.push(i[k].getAttribute('src'));}document.body.setAttribute('data-images',i.length);document.body.setAttribute('data-broken',b.join(' '));document.body.setAttribute('data-width',document.documentElement.scrollWidth);document.body.setAttribute('data-loaded','yes');});
            """
        return
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Backdrop device budget atlas</title><style>\(style)</style><script>\(script)</script></head><body>\n"
            + body.joined(separator: "\n") + "\n</body></html>\n"
    }
}
