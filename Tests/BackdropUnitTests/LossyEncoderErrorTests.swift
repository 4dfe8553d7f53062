import Backdrop
import BackdropTestSupport
import CWebP
import Testing

/// The JPEG and WebP writers' errors: one line saying what failed, not one message for every failure.
@Suite("Lossy encoders: errors in words")
struct LossyEncoderErrorTests {
    /// What the encoder throws for `image` (and `profile`), or nil when it encodes.
    static func failure(
        _ format: OutputPictureFormat, _ image: RGBAImage<UInt8>, profile: [UInt8]? = nil
    ) -> String? {
        do {
            _ = try LossyEncoder(format: format, quality: 80).encode(image, profile: profile)
            return nil
        } catch { return error.message }
    }

    /// Every code libwebp reports (WebPEncodingError, webp/encode.h: 0 VP8_ENC_OK to 11 VP8_ENC_ERROR_LAST, a
    /// stable ABI) has its own words, one line each; the size limit is named only by the dimension error, and out of
    /// memory, the partitions' limits, a file over 4 GiB and an abort say so.
    @Test func everyLibWebPErrorCodeHasItsOwnWords() {
        let words = (0...11).map { String(cString: bd_webp_encoding_error(Int32($0))) }
        #expect(Set(words).count == words.count, "\(words)")
        for text in words { #expect(!text.isEmpty && !text.contains("\n"), "\(text)") }
        #expect(words.indices.filter { words[$0].contains("16383") } == [5], "bad dimension: \(words)")
        #expect(words[1] == "out of memory")
        #expect(words[2].contains("out of memory"))
        #expect(words[6].contains("partition 0") && words[6].contains("limit"))
        #expect(words[7].contains("partition") && words[7].contains("limit"))
        #expect(words[9].contains("4 GiB"))
        #expect(words[10].contains("aborted"))
        #expect(words[11].contains("unknown"))
    }

    /// A picture over the format's size: one line naming the limit and the picture's size, for both writers.
    @Test func aPictureOverTheFormatsSizeNamesBoth() {
        let wide = RGBAImage(width: 16384, height: 1, samples: [UInt8](repeating: 255, count: 16384 * 4))
        #expect(
            Self.failure(.webP, wide)
                == "cannot encode the picture as WebP: WebP holds at most 16383×16383 pixels (this is 16384×1)")
        let wider = RGBAImage(width: 65501, height: 1, samples: [UInt8](repeating: 255, count: 65501 * 4))
        #expect(
            Self.failure(.jpeg, wider)
                == "cannot encode the picture as JPEG: JPEG holds at most 65500×65500 pixels (this is 65501×1)")
        #expect(Self.failure(.jpeg, wide) == nil)
    }

    /// A profile over the 255 APP2 segments a JPEG has room for is refused in one line naming its size (libjpeg
    /// would write it with the segments' count wrapped round); one at the limit is written.
    @Test func aJPEGProfileOverWhatTheSegmentsHoldIsRefused() {
        let image = RGBAImage(width: 8, height: 8, samples: [UInt8](repeating: 200, count: 8 * 8 * 4))
        let limit = 255 * 65519
        #expect(
            Self.failure(.jpeg, image, profile: [UInt8](repeating: 1, count: limit + 1))
                == "cannot encode the picture as JPEG: the ICC profile (16707346 bytes) is over the 16707345 bytes"
                + " a JPEG's APP2 segments hold")
        #expect(Self.failure(.jpeg, image, profile: [UInt8](repeating: 1, count: limit)) == nil)
    }
}
