import Foundation

extension RenderRequest {
    /// The `backdrop render` arguments that make this request, writing the picture to `output`: `render`, the mode
    /// its kind names with the mode's positional argument (`picture INPUT`, `image-effects INPUT` or `scene
    /// SCENE`), each other given field as its option in ``CodingKeys`` order (flags alone), then `-o output`. The
    /// fields a mode says by its name (`algorithm`, and `algorithm system` anywhere) are left out, and so are those
    /// its kind does not read (`fallback-alpha` and `vibrancy-blend` for image-effects). A request that
    /// ``validate(spelling:)`` accepts gives a command the CLI accepts and draws the same picture with; the preview's
    /// "copy the command" prints it (``shellCommand(output:)``).
    public func arguments(output: String) -> [String] {
        let data = (try? JSONEncoder().encode(self)) ?? Data()
        let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        var arguments: [String]
        var unprinted: Set<CodingKeys> = algorithm == Algorithm.system.rawValue ? [.algorithm] : []
        if let scene {
            arguments = ["render", "scene", scene]
            unprinted.insert(.scene)
        } else if algorithm == Algorithm.imageEffects.rawValue {
            arguments = ["render", "image-effects", input ?? ""]
            unprinted.formUnion([.input, .algorithm, .fallbackAlpha, .vibrancyBlend])
        } else {
            arguments = ["render", "picture", input ?? ""]
            unprinted.insert(.input)
        }
        for key in CodingKeys.allCases where !unprinted.contains(key) {
            guard let value = fields[key.rawValue] else { continue }
            if Self.flags.contains(key) {
                if (value as? Bool) == true { arguments.append("--" + key.rawValue) }
            } else {
                arguments += ["--" + key.rawValue, "\(value)"]
            }
        }
        return arguments + ["-o", output]
    }

    /// ``arguments(output:)`` as one shell line, `backdrop render …`, each argument quoted when the shell would
    /// otherwise read it differently.
    public func shellCommand(output: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,/:=+@")
        return (["backdrop"] + arguments(output: output)).map { argument in
            !argument.isEmpty && argument.allSatisfy(plain.contains)
                ? argument : "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }.joined(separator: " ")
    }
}
