import Backdrop
import BackdropTestSupport
import Foundation
import Testing

@Suite("PNG decoding and encoding")
struct PNGDecodingTests {
    /// Every PngSuite and libpng test file decodes to the independent expected RGBA8 within docs/rendering.md's
    /// tolerance: 2 levels, or 10 for files whose gAMA is neither 1.0 nor ≈ 0.45455; colour ignored where both alphas
    /// are 0.
    @Test func everyTestFileDecodesToTheExpectedRGBA() throws {
        var checked = 0
        var failures: [String] = []
        for folder in ["pngsuite", "testpngs"] {
            for name in try Fixtures.files(in: "png/\(folder)") where name.hasSuffix(".png") {
                let expectedPath = "png/expected/\(folder)--\(name)"
                let expected = try Fixtures.image(expectedPath)
                let actual: RGBAImage<UInt8>
                do {
                    actual = try PNGDecoder().decodeFile(Fixtures.path("png/\(folder)/\(name)"))
                } catch {
                    failures.append("\(folder)/\(name): \(error)")
                    continue
                }
                checked += 1
                guard actual.size == expected.size else {
                    failures.append("\(folder)/\(name): size \(actual.size), expected \(expected.size)")
                    continue
                }
                let tolerance = name.contains("-1.8") ? 10 : 2
                let difference = ImageDifference(actual, expected)
                if difference.maxDifference > tolerance {
                    failures.append(
                        "\(folder)/\(name): differs by \(difference.maxDifference) levels (tolerance \(tolerance))")
                }
            }
        }
        print("decoded and compared \(checked) test PNGs")
        #expect(failures.isEmpty, "\(failures.count) files:\n\(failures.joined(separator: "\n"))")
        #expect(checked == 155, "expected the 155 files of PngSuite and libpng's tests, compared \(checked)")
    }

    @Test func encodingThenDecodingReturnsThePixels8Bit() throws {
        let image = noiseImage(width: 37, height: 23, alpha: true)
        let decoded = try PNGDecoder().decode(try PNGEncoder().encode(image))
        #expect(decoded == image)
    }

    @Test func encodingThenDecodingReturnsThePixels16Bit() throws {
        let wide = RGBAImage<UInt16>(
            width: 19, height: 7, samples: (0..<(19 * 7 * 4)).map { UInt16(truncatingIfNeeded: $0 &* 2654435761) })
        let bytes = try PNGEncoder().encode(wide)
        #expect(try PNGDecoder().decode(bytes, as: UInt16.self) == wide)
        // Decoded to 8 bits, each sample is v·255/65535 rounded to nearest.
        let narrow = try PNGDecoder().decode(bytes, as: UInt8.self)
        #expect(narrow.samples == wide.samples.map { UInt8(reducing16: $0) })
    }

    @Test func an8BitImageWrittenAt16BitsDecodesBackTo8BitsUnchanged() throws {
        let image = noiseImage(width: 16, height: 16, alpha: true)
        #expect(try PNGDecoder().decode(try PNGEncoder().encode(image.widenedTo16())) == image)
    }

    @Test func encodingIsDeterministic() throws {
        let image = noiseImage(width: 64, height: 64)
        #expect(try PNGEncoder().encode(image) == PNGEncoder().encode(image))
    }
}

@Suite("PNG errors: one line naming the file and the problem")
struct PNGErrorTests {
    static let valid: [UInt8] = try! PNGEncoder().encode(noiseImage(width: 40, height: 30))

    func decodeError(_ bytes: [UInt8], maxPixels: Int = PNGDecoder.defaultMaxPixels) -> BackdropError? {
        do {
            _ = try PNGDecoder(maxPixels: maxPixels).decode(bytes, name: "sample.png")
            return nil
        } catch {
            return error
        }
    }

    @Test func aFileThatIsNotAPNGIsRefused() throws {
        let error = try #require(decodeError(Array("hello, this is text".utf8)))
        #expect(error.message == "sample.png: not a PNG file (bad signature)")
        #expect(error.kind == .badInput)
    }

    @Test func anEmptyFileIsRefused() throws {
        let error = try #require(decodeError([]))
        #expect(error.message.hasPrefix("sample.png: "))
    }

    @Test func everyTruncationOfAValidFileIsRefusedWithoutCrashing() throws {
        for length in 0..<Self.valid.count - 12 {  // the last 12 bytes are the IEND chunk, which libpng need not read
            let error = decodeError(Array(Self.valid.prefix(length)))
            #expect(error != nil, "decoding the first \(length) bytes succeeded")
            #expect(error.map { !$0.message.contains("\n") && $0.message.hasPrefix("sample.png: ") } ?? true)
        }
    }

    @Test func aFlippedByteInTheImageDataIsRefused() throws {
        var bytes = Self.valid
        bytes[bytes.count / 2] ^= 0x5A  // inside IDAT: its CRC no longer matches
        let error = try #require(decodeError(bytes))
        #expect(error.message.hasPrefix("sample.png: "))
    }

    @Test func everyFlippedByteIsRefusedOrDecodedNeverACrash() throws {
        var refused = 0
        for index in 8..<Self.valid.count {  // every byte after the signature, every chunk's length, type, data, CRC
            var bytes = Self.valid
            bytes[index] ^= 0xA5
            if let error = decodeError(bytes) {
                refused += 1
                #expect(!error.message.contains("\n") && error.message.hasPrefix("sample.png: "))
            }
        }
        #expect(refused > (Self.valid.count - 8) / 2, "only \(refused) flips were noticed")
    }

    /// Found by the fuzzer (Fuzz/FuzzPNG): a tiny file whose tEXt chunk claims 1.3 GB made libpng allocate it.
    @Test func aChunkClaimingMoreBytesThanTheFileHasIsRefusedBeforeAllocation() throws {
        func bigEndian(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)]
        }
        let header = Array(headerOnlyPNG(width: 16, height: 1).prefix(33))  // signature and IHDR
        let forged = header + bigEndian(1_358_965_946) + Array("tEXt".utf8) + Array(repeating: 0x41, count: 200)
        let error = try #require(decodeError(forged))
        #expect(error.message == "sample.png: file is truncated (chunk tEXt claims 1358965946 bytes, 200 are left)")
        // The command line too, with its peak memory far below the claim.
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("forged.png").path
        try Data(forged).write(to: URL(fileURLWithPath: path))
        let result = try runCLIMeasuringPeakMemory(
            ["render", path, "-o", directory.appendingPathComponent("out.png").path])
        #expect(result.status == 1 && result.output.contains("claims 1358965946 bytes"))
        // The child's own peak: RUSAGE_CHILDREN of this process counted any other test's child (a preview server).
        #expect(result.bytes < 400_000_000, "the command peaked at \(result.bytes) bytes")
    }

    @Test func aHeaderClaimingAbsurdDimensionsIsRefusedBeforeAllocation() throws {
        let error = try #require(decodeError(headerOnlyPNG(width: 100_000, height: 100_000)))
        #expect(error.message == "sample.png: the image is 100000×100000 pixels, over the limit of 100000000 pixels")
    }

    @Test func thePixelLimitIsConfigurable() throws {
        let error = try #require(decodeError(Self.valid, maxPixels: 1000))
        #expect(error.message.contains("40×30 pixels, over the limit of 1000 pixels"))
    }

    @Test func aMissingFileIsNamed() throws {
        do {
            _ = try PNGDecoder().decodeFile("/nonexistent/picture.png")
            Issue.record("decoding a missing file succeeded")
        } catch {
            #expect(error.message == "/nonexistent/picture.png: cannot read the file (no such file)")
        }
    }
}
