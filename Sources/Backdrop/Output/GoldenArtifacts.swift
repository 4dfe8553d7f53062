import Foundation

/// What a golden check leaves for review, in a folder of its own (never inside the golden tree): for each failing
/// case the actual picture, the diff picture and a three-up picture (expected | actual | diff); `index.html` with
/// every failure's three pictures and figures; `junit.xml`, one `testcase` per case, which CI systems read; and
/// `summary.json`. Deterministic but for the cases' times.
public enum GoldenArtifacts {
    /// The files for `results` of the manifest at `manifest`, as paths inside the folder and their bytes.
    ///
    /// `outputFolder` is where the files will be written, as the user named it: `junit.xml` names each failure's
    /// three-up picture under it as a `[[ATTACHMENT|path]]` line (GitLab and Jenkins show the picture with the
    /// failure; they resolve the path from the job's working folder).
    public static func files(
        for results: [GoldenCheck.Result], manifest: String, outputFolder: String = "."
    ) throws(BackdropError) -> [(
        String, [UInt8]
    )] {
        var files: [(String, [UInt8])] = []
        var entries: [Entry] = []
        for (index, result) in results.enumerated() {
            var entry = Entry(result: result)
            if case .failed(let comparison) = result.outcome, let actual = result.actual, let expected = result.expected
            {
                let folder = String(format: "%03d-", index + 1) + safeName(result.name)
                entry.actual = "\(folder)/actual.png"
                files.append((entry.actual!, try PNGEncoder().encode(actual)))
                let diff = comparison.diffPicture(expected: expected, actual: actual)
                if let diff {
                    entry.diff = "\(folder)/diff.png"
                    files.append((entry.diff!, try PNGEncoder().encode(diff)))
                }
                entry.threeUp = "\(folder)/three-up.png"
                files.append((entry.threeUp!, try PNGEncoder().encode(threeUp(expected, actual, diff))))
            }
            entries.append(entry)
        }
        files.append(("junit.xml", Array(junit(entries, manifest: manifest, outputFolder: outputFolder).utf8)))
        files.append(("summary.json", Array(summary(entries, manifest: manifest).utf8)))
        files.append(("index.html", Array(html(entries, manifest: manifest).utf8)))
        return files
    }

    /// One case as the reports show it.
    struct Entry {
        let result: GoldenCheck.Result
        var actual: String?
        var diff: String?
        var threeUp: String?

        var status: String {
            switch result.outcome {
            case .passed: return "passed"
            case .failed: return "failed"
            case .recorded: return "recorded"
            case .error: return "error"
            }
        }

        var message: String {
            switch result.outcome {
            case .passed(let comparison), .failed(let comparison): return comparison.summary
            case .recorded(let path): return "recorded \(path)"
            case .error(let message): return message
            }
        }

        var comparison: GoldenComparison? {
            switch result.outcome {
            case .passed(let comparison), .failed(let comparison): return comparison
            default: return nil
            }
        }
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

    static func junit(_ entries: [Entry], manifest: String, outputFolder: String) -> String {
        let failures = entries.filter { $0.status == "failed" }.count,
            errors = entries.filter { $0.status == "error" }.count
        let total = entries.reduce(0.0) { $0 + $1.result.seconds }
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"backdrop check\" tests=\"\(entries.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\(String(format: "\"%.3f\"", total))>",
            "  <testsuite name=\"\(xml(manifest))\" tests=\"\(entries.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\(String(format: "\"%.3f\"", total))>",
        ]
        for entry in entries {
            let open =
                "    <testcase classname=\"backdrop.check\" name=\"\(xml(entry.result.name))\" time=\(String(format: "\"%.3f\"", entry.result.seconds))"
            switch entry.status {
            case "failed":
                lines.append(open + ">")
                lines.append(
                    "      <failure type=\"tolerance\" message=\"\(xml(entry.message))\">\(xml(entry.message))\(entry.threeUp.map { "\n      three-up: " + xml($0) } ?? "")</failure>"
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

    /// summary.json's shape.
    struct Summary: Encodable {
        struct Case: Encodable {
            let name: String
            let status: String
            let message: String
            let psnr: Double?
            let maxDifference: Int?
            let differingPixels: Int?
            let pixelCount: Int?
            let ssim: Double?
            let actual: String?
            let diff: String?
            let threeUp: String?
        }
        let manifest: String
        let passed: Int
        let failed: Int
        let errors: Int
        let recorded: Int
        let cases: [Case]
    }

    static func summary(_ entries: [Entry], manifest: String) -> String {
        func count(_ status: String) -> Int { entries.filter { $0.status == status }.count }
        let summary = Summary(
            manifest: manifest, passed: count("passed"), failed: count("failed"), errors: count("error"),
            recorded: count("recorded"),
            cases: entries.map { entry in
                let difference = entry.comparison?.difference
                return Summary.Case(
                    name: entry.result.name, status: entry.status, message: entry.message,
                    psnr: difference.flatMap { $0.psnr.isFinite ? $0.psnr : nil },
                    maxDifference: difference?.maxDifference,
                    differingPixels: difference?.differingPixels, pixelCount: difference?.pixelCount,
                    ssim: entry.comparison?.ssim, actual: entry.actual, diff: entry.diff, threeUp: entry.threeUp)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(summary)) ?? Data(), as: UTF8.self) + "\n"
    }

    static func html(_ entries: [Entry], manifest: String) -> String {
        let failing = entries.filter { $0.status == "failed" || $0.status == "error" }
        var body = [
            "<h1>Golden check: \(xml(manifest))</h1>",
            "<p>\(entries.count) cases: \(entries.filter { $0.status == "passed" }.count) passed, "
                + "\(entries.filter { $0.status == "failed" }.count) failed, \(entries.filter { $0.status == "error" }.count) could not run, "
                + "\(entries.filter { $0.status == "recorded" }.count) recorded.</p>",
        ]
        if failing.isEmpty { body.append("<p class=\"ok\">Every case passed.</p>") }
        for entry in failing {
            body.append(
                "<section class=\"\(entry.status)\"><h2>\(xml(entry.result.name)) — \(entry.status)</h2><p>\(xml(entry.message))</p>"
            )
            if let threeUp = entry.threeUp {
                body.append(
                    "<figure><img src=\"\(xml(threeUp))\" alt=\"expected, actual and diff of \(xml(entry.result.name))\"><figcaption>expected | actual | diff (red: differing pixels)</figcaption></figure>"
                )
            }
            body.append("</section>")
        }
        body.append("<table><thead><tr><th>case</th><th>status</th><th>figures</th></tr></thead><tbody>")
        for entry in entries {
            body.append(
                "<tr class=\"\(entry.status)\"><td>\(xml(entry.result.name))</td><td>\(entry.status)</td><td>\(xml(entry.message))</td></tr>"
            )
        }
        body.append("</tbody></table>")
        let style = """
            body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1200px}img{max-width:100%}
            section{border-left:4px solid #c0392b;padding-left:12px;margin:16px 0}section.error{border-color:#b9770e}
            table{border-collapse:collapse;font-size:12px}td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left}
            tr.failed td:nth-child(2){color:#c0392b;font-weight:bold}tr.passed td:nth-child(2){color:#1e8449}.ok{color:#1e8449}
            """
        let script = """
            window.addEventListener('load',function(){var i=document.images,b=[];for(var k=0;k<i.length;k++){if(!i[k].complete||i[k].naturalWidth===0)b.push(i[k].getAttribute('src'));}document.body.setAttribute('data-images',i.length);document.body.setAttribute('data-broken',b.join(' '));document.body.setAttribute('data-loaded','yes');});
            """
        return
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Golden check</title><style>\(style)</style><script>\(script)</script></head><body>\n"
            + body.joined(separator: "\n") + "\n</body></html>\n"
    }
}
