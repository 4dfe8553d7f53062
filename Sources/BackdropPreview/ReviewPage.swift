import Backdrop
import Foundation

/// The review page the server shows: Page/review-page.html, .css and .js (``PageFiles``), with the failed cases
/// written into its config, and the review views of `check --output`'s `index.html` (review.js and review.css,
/// served by ``ReviewRoutes`` from their one copy in the golden layer).
///
/// For each failed case: its name, its figures, the limits it broke, the views (side by side, swipe, flicker,
/// zoom) and an accept button. For each failed budget or cost case: its name, its line, a line per device (its
/// status and figures, as `check` prints them), and an accept button where a cost golden moved (accepting writes the
/// cost golden `check --update failed` would); a case that only missed its budget says there is nothing to accept; above them a filter on the cases' names and a button that accepts every case the
/// filter shows that is not accepted yet. Accepting posts to `/accept`; the answer's paths, or its error, are shown
/// beside the case. A case accepted (on this page, before a reload, or by `review --accept`) is shown as accepted,
/// not as failing, and its button is disabled.
enum ReviewPage {
    /// The page for `cases`, each picture's address `/picture?case=I&kind=expected|actual|diff`; `accepted` names
    /// the cases whose golden already holds their actual picture (``GoldenReview/accepted(into:)``).
    static func make(
        cases: [ReviewCase], costCases: [GoldenSummary.Case] = [], into: String?, accepted: [String] = []
    ) throws(BackdropError) -> String {
        let listed: [[String: Any]] = cases.enumerated().map { index, failure in
            let entry = failure.entry
            var item: [String: Any] = [
                "name": entry.name, "message": entry.message, "failedLimits": entry.failedLimits ?? [],
                "expected": "/picture?case=\(index)&kind=expected", "actual": "/picture?case=\(index)&kind=actual",
            ]
            if entry.diff != nil { item["diff"] = "/picture?case=\(index)&kind=diff" }
            if let box = entry.differingBox, box.count == 4 {
                item["box"] = box.map(String.init).joined(separator: ",")
            }
            return item
        }
        let costs: [[String: Any]] = costCases.map { entry in
            [
                "name": entry.name, "message": entry.message, "acceptable": entry.actual != nil,
                "devices": (entry.devices ?? []).map {
                    ["device": $0.device, "status": $0.status, "message": $0.message]
                },
            ]
        }
        var config: [String: Any] = ["cases": listed, "costCases": costs, "accepted": accepted]
        if let into { config["into"] = into }
        return try PageFiles.page("review-page", config: config)
    }
}
