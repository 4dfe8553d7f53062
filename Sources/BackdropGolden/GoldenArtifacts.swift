import BackdropImageIO
import Foundation

/// What a golden check leaves for review, in a folder of its own (never inside the golden tree): for each failing
/// case the actual picture, the diff picture and a three-up picture (expected | actual | diff); `index.html` with
/// every failure's three pictures and figures; `junit.xml`, one `testcase` per case, which CI systems read;
/// `summary.json` (``GoldenSummary``: every case's result, the shard, the manifest) and `summary.md` (for a CI
/// job's summary page). Deterministic but for the cases' times. `backdrop merge-reports` makes the same four files
/// from the shards' `summary.json` (``merged(_:outputFolder:)``), so a merged report is made by the same code as
/// one run's.
public enum GoldenArtifacts {
    /// The files for `results`, the cases at `indices` (0-based positions in the suite) of the manifest described
    /// by `suite`, as paths inside the folder and their bytes.
    ///
    /// `outputFolder` is where the files will be written, as the user named it: `junit.xml` names each failure's
    /// three-up picture under it as a `[[ATTACHMENT|path]]` line (GitLab and Jenkins show the picture with the
    /// failure; they resolve the path from the job's working folder).
    public static func files(
        for results: [GoldenCheck.Result], indices: [Int]? = nil, suite: GoldenSummary.Suite,
        outputFolder: String = "."
    ) throws(BackdropError) -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        var cases: [GoldenSummary.Case] = []
        for (position, result) in results.enumerated() {
            let index = indices?[position] ?? position
            var entry = GoldenSummary.Case(result, index: index)
            if case .failed(let comparison) = result.outcome, let actual = result.actual, let expected = result.expected
            {
                let folder = String(format: "%03d-", index + 1) + safeName(result.name)
                entry.actual = "\(folder)/actual.png"
                files.append((entry.actual!, try PNGEncoder().encode(actual)))
                entry.expected = "\(folder)/expected.png"
                files.append((entry.expected!, try PNGEncoder().encode(expected)))
                entry.differingBox = GoldenReview.differingBox(expected, actual).map {
                    [$0.x, $0.y, $0.width, $0.height]
                }
                let diff = comparison.diffPicture(expected: expected, actual: actual)
                if let diff {
                    entry.diff = "\(folder)/diff.png"
                    files.append((entry.diff!, try PNGEncoder().encode(diff)))
                }
                entry.threeUp = "\(folder)/three-up.png"
                files.append((entry.threeUp!, try PNGEncoder().encode(threeUp(expected, actual, diff))))
            }
            if case .cost(let cost) = result.outcome, let proposed = cost.proposed {
                // What accepting writes: the cost golden with the moved devices re-recorded.
                entry.actual = String(format: "%03d-", index + 1) + safeName(result.name) + "/actual.cost.json"
                files.append((entry.actual!, proposed.json()))
            }
            cases.append(entry)
        }
        return files + reports(GoldenSummary(suite: suite, cases: cases), outputFolder: outputFolder)
    }

    /// The four reports of `summary`, and the review page's style sheet and script that `index.html` loads.
    static func reports(_ summary: GoldenSummary, outputFolder: String) -> [(String, [UInt8])] {
        [
            ("junit.xml", Array(junit(summary, outputFolder: outputFolder).utf8)),
            ("summary.json", Array(summary.json().utf8)),
            ("summary.md", Array(markdown(summary).utf8)),
            ("index.html", Array(html(summary).utf8)),
        ] + GoldenReview.pageFiles()
    }

    /// One report from the shards' summaries (`backdrop merge-reports`): the four reports, and the pictures to copy
    /// from each shard's folder (source path inside the shard's folder, destination inside the merged one). Refuses
    /// summaries of another format version or of different manifests, shards of different counts, a shard missing
    /// or given twice, and a case in two shards.
    public static func merged(_ shards: [(folder: String, summary: GoldenSummary)], outputFolder: String)
        throws(BackdropError) -> (files: [(String, [UInt8])], copies: [(from: String, to: String)])
    {
        guard let first = shards.first else { throw BackdropError(.badOption, "give the shards' folders to merge") }
        for (folder, summary) in shards {
            guard summary.formatVersion == GoldenSummary.formatVersion else {
                throw BackdropError(
                    .badOption,
                    "\(folder)/summary.json: format version \(summary.formatVersion), this backdrop reads \(GoldenSummary.formatVersion)"
                )
            }
            guard summary.suite.manifestDigest == first.summary.suite.manifestDigest,
                summary.suite.caseCount == first.summary.suite.caseCount
            else {
                throw BackdropError(
                    .badOption,
                    "\(folder): a run of another manifest (\(summary.suite.manifest)) than \(first.folder)'s (\(first.summary.suite.manifest))"
                )
            }
            guard summary.suite.shard.count == first.summary.suite.shard.count else {
                throw BackdropError(
                    .badOption,
                    "\(folder): shard \(summary.suite.shard.index)/\(summary.suite.shard.count), but \(first.folder) is one of \(first.summary.suite.shard.count)"
                )
            }
        }
        let count = first.summary.suite.shard.count
        var seen: [Int: String] = [:]
        for (folder, summary) in shards {
            if let other = seen[summary.suite.shard.index] {
                throw BackdropError(
                    .badOption, "\(folder) and \(other) are both shard \(summary.suite.shard.index)/\(count)")
            }
            seen[summary.suite.shard.index] = folder
        }
        if let missing = (1...count).first(where: { seen[$0] == nil }) {
            throw BackdropError(.badOption, "shard \(missing)/\(count) is missing")
        }
        var cases: [Int: GoldenSummary.Case] = [:]
        var copies: [(from: String, to: String)] = []
        for (folder, summary) in shards {
            for entry in summary.cases {
                if cases[entry.index] != nil {
                    throw BackdropError(
                        .badOption, "\(folder): case \(entry.index + 1) ('\(entry.name)') is in two shards")
                }
                cases[entry.index] = entry
                for picture in [entry.actual, entry.diff, entry.threeUp, entry.expected].compactMap({ $0 }) {
                    guard !picture.hasPrefix("/"), !picture.split(separator: "/").contains(".."),
                        FileLocation.lies(folder + "/" + picture, inside: folder)  // no link out of the shard
                    else {
                        throw BackdropError(
                            .badOption, "\(folder)/summary.json: picture path '\(picture)' leaves its folder")
                    }
                    copies.append((folder + "/" + picture, picture))
                }
            }
        }
        guard cases.count == first.summary.suite.caseCount else {
            throw BackdropError(
                .badOption, "the shards hold \(cases.count) of the manifest's \(first.summary.suite.caseCount) cases")
        }
        var suite = first.summary.suite
        suite.shard = GoldenSummary.Shard(index: 1, count: 1)
        let summary = GoldenSummary(suite: suite, cases: cases.keys.sorted().map { cases[$0]! })
        return (reports(summary, outputFolder: outputFolder), copies)
    }

    /// Expected, actual and diff side by side with 8-pixel gaps, on white; the diff is left out when the sizes
    /// differ.
    public static func threeUp(_ expected: RGBAImage<UInt8>, _ actual: RGBAImage<UInt8>, _ diff: RGBAImage<UInt8>?)
        -> RGBAImage<UInt8>
    {
        let pictures = [expected, actual] + (diff.map { [$0] } ?? [])
        let gap = 8
        let width = pictures.reduce(0) { $0 + $1.width } + gap * (pictures.count - 1)
        let height = pictures.map(\.height).max() ?? 0
        var samples = [UInt8](repeating: 255, count: width * height * 4)
        var left = 0
        for picture in pictures {
            for y in 0..<picture.height {
                let source = y * picture.width * 4, target = (y * width + left) * 4
                samples.replaceSubrange(
                    target..<target + picture.width * 4,
                    with: picture.samples[source..<source + picture.width * 4])
            }
            left += picture.width + gap
        }
        return RGBAImage(width: width, height: height, samples: samples)
    }

    static func safeName(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
    }

    static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// `junit.xml`: one `testcase` per picture case, and one per device of a budget or cost case (named "case
    /// [device]", class `backdrop.budget`, the case's time split evenly), so that a CI system lists each device that
    /// misses its budget; the counts are of test cases.
    static func junit(_ summary: GoldenSummary, outputFolder: String) -> String {
        struct Row {
            var classname: String, name: String, status: String, message: String, seconds: Double
            var threeUp: String?
        }
        var rows: [Row] = []
        for entry in summary.cases {
            if let devices = entry.devices, !devices.isEmpty {
                for device in devices {
                    rows.append(
                        Row(
                            classname: "backdrop.budget", name: "\(entry.name) [\(device.device)]",
                            status: device.status, message: device.message,
                            seconds: entry.seconds / Double(devices.count)))
                }
            } else {
                rows.append(
                    Row(
                        classname: "backdrop.check", name: entry.name, status: entry.status, message: entry.message,
                        seconds: entry.seconds, threeUp: entry.threeUp))
            }
        }
        let total = rows.reduce(0.0) { $0 + $1.seconds }
        let manifest = summary.suite.manifest
        let failures = rows.filter { $0.status == "failed" }.count, errors = rows.filter { $0.status == "error" }.count
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"backdrop check\" tests=\"\(rows.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\(String(format: "\"%.3f\"", total))>",
            "  <testsuite name=\"\(xml(manifest))\" tests=\"\(rows.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\(String(format: "\"%.3f\"", total))>",
        ]
        for entry in rows {
            let open =
                "    <testcase classname=\"\(entry.classname)\" name=\"\(xml(entry.name))\" time=\(String(format: "\"%.3f\"", entry.seconds))"
            switch entry.status {
            case "failed":
                let type = entry.classname == "backdrop.budget" ? "budget" : "tolerance"
                lines.append(open + ">")
                lines.append(
                    "      <failure type=\"\(type)\" message=\"\(xml(entry.message))\">\(xml(entry.message))\(entry.threeUp.map { "\n      three-up: " + xml($0) } ?? "")</failure>"
                )
                if let threeUp = entry.threeUp {
                    lines.append("      <system-out>[[ATTACHMENT|\(xml(outputFolder + "/" + threeUp))]]</system-out>")
                }
                lines.append("    </testcase>")
            case "error":
                lines.append(open + ">")
                lines.append(
                    "      <error type=\"error\" message=\"\(xml(entry.message))\">\(xml(entry.message))</error>")
                lines.append("    </testcase>")
            default:
                lines.append(open + "/>")
            }
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A CI job's summary page (GitHub's `$GITHUB_STEP_SUMMARY`, GitLab's and Buildkite's annotations): the counts,
    /// then every case that did not pass with its figures.
    static func markdown(_ summary: GoldenSummary) -> String {
        var lines = [
            "## Golden check: \(summary.suite.manifest)", "",
            "\(Plural.count(summary.cases.count, "case")): \(summary.passed) passed, \(summary.failed) failed, \(summary.errors) could not run, \(summary.recorded) recorded.",
            "",
        ]
        let notPassed = summary.cases.filter { $0.status != "passed" }
        if notPassed.isEmpty {
            lines.append("Every case passed.")
        } else {
            lines += ["| case | status | figures |", "|---|---|---|"]
            for entry in notPassed {
                let cells = [entry.name, entry.status, entry.message].map {
                    $0.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
                }
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A section per budget or cost case: a row per device with a bar of its predicted frame (its range as a thin
    /// line) against a mark at its budget, on one scale per case (the largest of the ranges' ends, the budgets and
    /// the recorded ms), and the device's line. Deterministic: widths to 0.1 %.
    static func budgetSections(_ entries: [GoldenSummary.Case]) -> [String] {
        var body: [String] = []
        for entry in entries {
            guard let devices = entry.devices else { continue }
            let scale = max(
                devices.map { [$0.ms ?? 0, $0.msRange?.last ?? 0, $0.budgetMs ?? 0, $0.goldenMs ?? 0].max()! }.max()
                    ?? 0, 1e-9)
            func percent(_ ms: Double) -> String { String(format: "%.1f%%", min(ms / scale, 1) * 100) }
            body.append(
                "<section class=\"budget \(entry.status)\" data-case=\"\(xml(entry.name))\"><h2>\(xml(entry.name)) — \(entry.status)</h2><table>"
            )
            for device in devices {
                var bar = ""
                if let ms = device.ms {
                    bar += "<span class=\"ms\" style=\"width:\(percent(ms))\"></span>"
                }
                if let range = device.msRange, range.count == 2 {
                    bar +=
                        "<span class=\"range\" style=\"left:\(percent(range[0]));width:\(percent(range[1] - range[0]))\"></span>"
                }
                if let budget = device.budgetMs {
                    bar +=
                        "<span class=\"budget\" style=\"left:\(percent(budget))\" title=\"budget \(xml(device.budget ?? ""))\"></span>"
                }
                body.append(
                    "<tr class=\"\(device.status)\" data-device=\"\(xml(device.device))\"><td>\(xml(device.device))</td><td>\(device.status)</td><td><div class=\"bar\">\(bar)</div></td><td>\(xml(device.message))</td></tr>"
                )
            }
            body.append("</table></section>")
        }
        return body
    }

    static func html(_ summary: GoldenSummary) -> String {
        let entries = summary.cases, manifest = summary.suite.manifest
        let failing = entries.filter { ($0.status == "failed" || $0.status == "error") && $0.devices == nil }
        var body = [
            "<h1>Golden check: \(xml(manifest))</h1>",
            "<p>\(Plural.count(entries.count, "case")): \(entries.filter { $0.status == "passed" }.count) passed, "
                + "\(entries.filter { $0.status == "failed" }.count) failed, \(entries.filter { $0.status == "error" }.count) could not run, "
                + "\(entries.filter { $0.status == "recorded" }.count) recorded.</p>",
        ]
        if failing.isEmpty { body.append("<p class=\"ok\">Every case passed.</p>") }
        for entry in failing {
            body.append(
                "<section class=\"\(entry.status)\"><h2>\(xml(entry.name)) — \(entry.status)</h2><p>\(xml(entry.message))</p>"
            )
            if let limits = entry.failedLimits, !limits.isEmpty {
                body.append("<p class=\"limits\">Failed: \(xml(limits.joined(separator: ", ")))</p>")
            }
            if let threeUp = entry.threeUp {
                body.append(
                    "<figure><img src=\"\(xml(threeUp))\" alt=\"expected, actual and diff of \(xml(entry.name))\"><figcaption>expected | actual | diff (red: differing pixels)</figcaption></figure>"
                )
            }
            if let expected = entry.expected, let actual = entry.actual {
                let box = entry.differingBox.map { " data-box=\"\($0.map(String.init).joined(separator: ","))\"" } ?? ""
                let diff = entry.diff.map { " data-diff=\"\(xml($0))\"" } ?? ""
                body.append(
                    "<div class=\"viewer\" data-name=\"\(xml(entry.name))\" data-expected=\"\(xml(expected))\" data-actual=\"\(xml(actual))\"\(diff)\(box)></div>"
                )
            }
            body.append("</section>")
        }
        body += budgetSections(entries)
        body.append("<table><thead><tr><th>case</th><th>status</th><th>figures</th></tr></thead><tbody>")
        for entry in entries {
            body.append(
                "<tr class=\"\(entry.status)\"><td>\(xml(entry.name))</td><td>\(entry.status)</td><td>\(xml(entry.message))</td></tr>"
            )
        }
        body.append("</tbody></table>")
        let style = """
            body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1200px}img{max-width:100%}
            section{border-left:4px solid #c0392b;padding-left:12px;margin:16px 0}section.error{border-color:#b9770e}
            table{border-collapse:collapse;font-size:12px}td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left}
            tr.failed td:nth-child(2){color:#c0392b;font-weight:bold}tr.passed td:nth-child(2){color:#1e8449}.ok{color:#1e8449}
            section.passed,section.recorded{border-color:#1e8449}.bar{position:relative;width:320px;height:14px;background:#eee}
            .bar .ms{position:absolute;left:0;top:0;bottom:0;background:#1e8449}tr.failed .bar .ms{background:#c0392b}
            .bar .range{position:absolute;top:5px;height:4px;background:rgba(0,0,0,.35)}
            .bar .budget{position:absolute;top:-3px;bottom:-3px;width:2px;background:#222}
            """
        let script = """
            window.addEventListener('load',function(){var i=document.images,b=[];for(var k=0;k<i.length;k++){if(!i[k].complete||i[k].naturalWidth===0)b.push(i[k].getAttribute('src'));}document.body.setAttribute('data-images',i.length);document.body.setAttribute('data-broken',b.join(' '));document.body.setAttribute('data-loaded','yes');});
            """
        return
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Golden check</title><style>\(style)</style><link rel=\"stylesheet\" href=\"review.css\"><script>\(script)</script><script src=\"review.js\"></script></head><body>\n"
            + body.joined(separator: "\n") + "\n</body></html>\n"
    }
}
