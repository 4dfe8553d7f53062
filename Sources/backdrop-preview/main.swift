// `backdrop preview`'s server, run by `backdrop preview` (Sources/BackdropCLI/PreviewCommand.swift) or directly;
// with `review` first, `backdrop review DIR --serve`'s server (ReviewServeCommand), which `backdrop review` runs.
// (A picture to preview named `review` is given as `./review`.)
import BackdropCLI

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "review" {
    ReviewServeCommand.runWithOneLineErrors(arguments: Array(CommandLine.arguments.dropFirst(2)))
}
PreviewServeCommand.runWithOneLineErrors()
