import ArgumentParser
import Backdrop
import Foundation

struct ScenesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenes",
        abstract: "List the built-in scenes that 'backdrop estimate --scene' prices, or print one as JSON.",
        discussion: """
            The scenes are the seed talks' case studies (tables with shadows, masks and their fixes) and two screens \
            with blur. Their geometry is Backdrop's assumption; print one with --json to start a scene file of your own.

            Examples:
              backdrop scenes
              backdrop scenes --json photos-table-shadows > my-screen.json
            """
    )

    @Option(help: ArgumentHelp("Print this built-in scene's JSON.", valueName: "name"))
    var json: String?

    func run() throws {
        if let json {
            guard let scene = BuiltInScenes.named(json) else {
                throw BackdropError(
                    .badOption, "unknown scene '\(json)' (built in: \(BuiltInScenes.names.joined(separator: ", ")))")
            }
            print(SceneJSON.text(scene), terminator: "")
            return
        }
        // A name a line, its description wrapped below it.
        for scene in BuiltInScenes.all {
            print("\(scene.name) (\(scene.redraw.rawValue))")
            var line = " "
            for word in scene.description.split(separator: " ") {
                if line.count + word.count + 1 > 100 {
                    print(line)
                    line = " "
                }
                line += " " + word
            }
            print(line)
        }
    }
}
