/// FNV-1a, 64 bits: a fast, stable hash for identities that need no security (a placeholder picture's colours from
/// a layer's name, a manifest's digest in a shard's summary). The same bytes give the same value on every machine
/// and run, unlike Swift's `Hasher`.
package enum FNV1a {
    package static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
