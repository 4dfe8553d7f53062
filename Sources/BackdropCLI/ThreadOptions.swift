import ArgumentParser
import Backdrop

/// Options that choose how many threads and which scheduler.
struct ThreadOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Row bands worked on at once (default: the number of cores). The output is the same for any value.",
            valueName: "n"))
    var threads: Int?

    @Option(help: ArgumentHelp("Thread machinery: openmp (the default) or dispatch.", valueName: "name"))
    var scheduler: Scheduler = .openMP

    func resolve() throws(BackdropError) -> Parallelism {
        let chosen = scheduler
        if let threads, !(1...1024).contains(threads) {
            throw BackdropError(.badOption, "--threads \(threads) is out of range (1…1024)")
        }
        return Parallelism(scheduler: chosen, threads: threads ?? Parallelism.defaultThreadCount)
    }
}
