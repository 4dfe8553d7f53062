import BackdropImageIO

/// Decodes a flat `Decodable` (optional text, numbers and flags) from name → text pairs, as a URL query gives them:
/// numbers as written (`scale=2`), flags as `1`, `0`, `true` or `false`. A name the type does not know, or a value
/// of the wrong form, is a one-line ``BackdropError`` naming it.
public struct OptionTextDecoder {
    /// Decodes `values` as `Value`, whose coding keys are every name it accepts.
    public static func decode<Value: Decodable, Keys: CodingKey & CaseIterable>(
        _: Value.Type, keys: Keys.Type, from values: [String: String]
    ) throws(BackdropError) -> Value {
        let known = Set(Keys.allCases.map(\.stringValue))
        if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
            throw BackdropError(.badOption, "unknown parameter '\(unknown)'")
        }
        do {
            return try Value(from: TextDecoder(values: values))
        } catch let error as BackdropError {
            throw error
        } catch {
            throw BackdropError(.badOption, "\(error)")
        }
    }
}

/// The `Decoder` behind ``OptionTextDecoder``.
private struct TextDecoder: Decoder {
    let values: [String: String]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container(values: values))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Unsupported() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Unsupported() }

    struct Unsupported: Error {}

    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let values: [String: String]
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { values.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }
        func decodeNil(forKey key: Key) -> Bool { values[key.stringValue] == nil }

        func text(_ key: Key) throws -> String {
            guard let text = values[key.stringValue] else {
                throw BackdropError(.badOption, "give \(key.stringValue)")
            }
            return text
        }

        func decode(_: String.Type, forKey key: Key) throws -> String { try text(key) }

        func decode(_: Bool.Type, forKey key: Key) throws -> Bool {
            switch try text(key) {
            case "1", "true": return true
            case "0", "false": return false
            case let other: throw BackdropError(.badOption, "\(key.stringValue) '\(other)' is not 1 or 0")
            }
        }

        func decode(_: Double.Type, forKey key: Key) throws -> Double {
            let text = try text(key)
            guard let value = DecimalNumber.parse(text) else {
                throw BackdropError(.badOption, "\(key.stringValue) '\(text)' is not a number")
            }
            return value
        }

        func decode(_: Int.Type, forKey key: Key) throws -> Int {
            let text = try text(key)
            guard let value = Int(text) else {
                throw BackdropError(.badOption, "\(key.stringValue) '\(text)' is not a whole number")
            }
            return value
        }

        func decode(_: Float.Type, forKey key: Key) throws -> Float { throw Unsupported() }
        func decode(_: Int8.Type, forKey key: Key) throws -> Int8 { throw Unsupported() }
        func decode(_: Int16.Type, forKey key: Key) throws -> Int16 { throw Unsupported() }
        func decode(_: Int32.Type, forKey key: Key) throws -> Int32 { throw Unsupported() }
        func decode(_: Int64.Type, forKey key: Key) throws -> Int64 { throw Unsupported() }
        func decode(_: UInt.Type, forKey key: Key) throws -> UInt { throw Unsupported() }
        func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 { throw Unsupported() }
        func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 { throw Unsupported() }
        func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 { throw Unsupported() }
        func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 { throw Unsupported() }
        func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T { throw Unsupported() }

        func nestedContainer<NestedKey: CodingKey>(keyedBy: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        { throw Unsupported() }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw Unsupported() }
        func superDecoder() throws -> any Decoder { throw Unsupported() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw Unsupported() }
    }
}
