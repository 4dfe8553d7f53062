import ArgumentParser
import Backdrop
import CMemory
import Foundation

/// The `backdrop` command. Exit codes: 0 success, 1 bad input (unreadable, corrupt or oversized PNG, unwritable
/// output), 2 usage (unknown option or style, a value out of range, a frame outside the picture).
public struct BackdropCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "backdrop",
        abstract:
            "Render Apple's blur, material, vibrancy and glass effects on the CPU, and predict their GPU cost per device.",
        discussion: """
            Backdrop turns a picture (PNG, JPEG, WebP or HEIF) into the same picture seen through a blur effect \
            view: blurred, saturated and tinted the way UIBlurEffect styles look, inside a frame you choose, with vibrant content over it if you like; \
            outside the frame the picture is untouched. It also predicts what the effect costs on the GPUs of the \
            iPhone 3GS through 2025's iPhones and iPads, and compares renderings with golden images.

            Examples:
              backdrop demo --output demo
              backdrop render picture photo.png -o blurred.png --style dark --scale 2
              backdrop render scene navbar-tabbar-blur --device iphone-5 -o screen.png
              backdrop estimate view --all-devices --style light
              backdrop estimate scene photos-table-shadows --all-devices
              backdrop preview photo.png
              backdrop compare golden.png blurred.png --min-psnr 40 --diff diff.png
              backdrop styles

            Exit codes: 0 success · 1 bad input (unreadable, corrupt or oversized picture, unwritable output) · \
            2 usage (unknown option or style, value out of range, frame outside the picture). compare and check \
            use 1 for "outside the tolerance" and 2 for unreadable input.
            """,
        version: "0.1.0",
        subcommands: [
            RenderCommand.self, StylesCommand.self, DemoCommand.self, DevicesCommand.self, EstimateCommand.self,
            ScenesCommand.self, ImportCommand.self, PreviewCommand.self,
            CompareCommand.self, CheckCommand.self, ReviewCommand.self, MergeReportsCommand.self, ReportCommand.self,
        ]
    )

    public init() {}

    /// Parses the process's arguments and runs the command: every error is one line, with the exit codes above.
    public static func main() {
        // One command, then exit: glibc may keep freed memory for the next buffer (`backdrop_memory.h`). The preview
        // server, which lives on, does not ask for this.
        _ = bd_prefer_few_page_faults()
        // Ctrl-C during a write leaves no hidden temporary file behind.
        AtomicFile.removeTemporaryFilesOnSignals()
        // A file over `ulimit -f` is a write error reported in one line (EFBIG), not a silent SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        // No output replaces a file the command reads (`--force` aside).
        InputFile.recordReads()
        runWithOneLineErrors()
    }
}

extension ParsableCommand {
    /// Parses the process's arguments and runs the command (`backdrop`, or `backdrop-preview` for `backdrop preview`):
    /// every error is one line on standard error, exit status 2 for usage, 1 for bad input. A command whose 1 says
    /// "outside the tolerance" (``ReportsToleranceOutcome``) or that imports (``ExitsTwoOnEveryError``) exits 2 for
    /// every error: an unwritable output too.
    /// `arguments` replaces the process's (without the program's name) when given.
    public static func runWithOneLineErrors(arguments: [String]? = nil) -> Never {
        // OpenMP's workers spin for 200 ms after a parallel region before they sleep (libomp's default block time):
        // after a 2 ms render that took the second core from the PNG encoder for the rest of the command. One
        // millisecond still covers the gaps between a render's own regions. A value the user set is kept.
        setenv("KMP_BLOCKTIME", "1", 0)
        var reportsTolerance = false
        do {
            var command = try parseAsRoot(arguments)
            reportsTolerance = command is any ExitsTwoOnEveryError
            try command.run()
            endProcess(0)
        } catch let error as BackdropError {
            FileHandle.standardError.write(Data("backdrop: error: \(error.message)\n".utf8))
            endProcess(error.kind == .badOption || reportsTolerance ? 2 : 1)
        } catch let code as ExitCode {
            // A command that has reported its outcome itself (compare: outside the tolerance).
            endProcess(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                let message = fullMessage(for: error)
                if !message.isEmpty { print(message) }
                endProcess(0)
            }
            // One line, like every other error; the usage is one --help away.
            let message = self.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            FileHandle.standardError.write(
                Data("backdrop: error: \(message.escapingControlCharacters) (see 'backdrop --help')\n".utf8))
            // ArgumentParser reports usage errors as EX_USAGE (64); Backdrop documents 2.
            endProcess(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}

/// Ends the process with `code` once standard output's buffer is written: `_exit`, not `exit`, so that no library's
/// exit handler runs (libomp's shuts its idle workers down): a process of one command has nothing left to tidy, and
/// the kernel frees the rest. 0.3 ms of a wallpaper render (a C probe timing `exit` to the parent's `waitpid`, 20
/// renders each way). What the kernel does not free, OpenMP's registration file in /dev/shm, is removed first
/// (``Parallelism/endProcess()``: a hard pause, 0.1–0.15 ms in a C probe of the same runtime); where other threads
/// used OpenMP too (the preview's render queue, `check --jobs`), `exit` runs its handler instead.
func endProcess(_ code: Int32) -> Never {
    fflush(nil)
    if Parallelism.endProcess() { _exit(code) }
    exit(code)
}

/// A command any error of which, an output it cannot write included, exits 2 (`import`: issue 66).
protocol ExitsTwoOnEveryError {}

/// A command whose exit status 1 means "outside the tolerance" (`compare`, `check`, `merge-reports`): any error it
/// meets exits 2, so that a script never reads an error as a failed comparison.
protocol ReportsToleranceOutcome: ExitsTwoOnEveryError {}

extension ImportCommand: ExitsTwoOnEveryError {}

extension CompareCommand: ReportsToleranceOutcome {}
extension CheckCommand: ReportsToleranceOutcome {}
extension MergeReportsCommand: ReportsToleranceOutcome {}
