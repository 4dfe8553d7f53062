// `backdrop preview`'s server, run by `backdrop preview` (Sources/BackdropCLI/PreviewCommand.swift) or directly.
import BackdropCLI

PreviewServeCommand.runWithOneLineErrors()
