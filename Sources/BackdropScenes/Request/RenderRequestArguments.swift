import Foundation

extension RenderRequest {
    /// The `backdrop render` arguments that make this request, writing the picture to `output`: `render`, the input,
    /// each given field as its option in ``CodingKeys`` order (flags alone, `algorithm system` left out), then `-o
    /// output`. A request that ``validate(spelling:)`` accepts gives a command the CLI accepts and draws the same
    /// picture with; the preview's "copy the command" prints it (``shellCommand(output:)``).
    public func arguments(output: String) -> [String] {
        let data = (try? JSONEncoder().encode(self)) ?? Data()
        let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        var arguments = ["render"]
        for key in CodingKeys.allCases {
            guard let value = fields[key.rawValue] else { continue }
            switch key {
            case .input: arguments.append(input ?? "")
            case .steady, .exact, .tintOnly: if (value as? Bool) == true { arguments.append("--" + key.rawValue) }
            case .algorithm where algorithm == Algorithm.system.rawValue: continue
            default: arguments += ["--" + key.rawValue, "\(value)"]
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
