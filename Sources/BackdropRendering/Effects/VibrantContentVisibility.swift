import BackdropImageIO

extension VibrancyBlend {
    /// The most this blend can move any backdrop channel under `content`, in levels of 255, over every pixel of the
    /// content (straight RGBA8) and every backdrop.
    ///
    /// From the composite (``composite(color:alpha:over:one:)``): a content pixel of colour c and alpha a moves a
    /// backdrop channel b by a·|blend(c, b) − b|. Plus-darker's max(0, c + b − 1) moves it by a·min(b, 1 − c), at most
    /// a·(1 − c): white content (c = 1) changes nothing over any backdrop, black content darkens the most.
    /// Plus-lighter's min(1, c + b) moves it by a·min(1 − b, c), at most a·c: black content changes nothing, white
    /// content lightens the most. Exact in integers: the largest (255 − c)·a (plus-darker) or c·a (plus-lighter) over
    /// the colour channels, divided by 255 and rounded down.
    ///
    /// With `atLeast`, the scan stops at the first pixel that moves a channel by that many levels and returns its
    /// change (≥ `atLeast`): whether content can show at all is usually known at its first dark (or light) pixel,
    /// not after the whole picture (a full-screen scan cost 5 ms of a 2 ms render).
    public func largestChange(of content: RGBAImage<UInt8>, atLeast limit: Int = .max) -> Int {
        let stop = limit > Int.max / 255 ? Int.max : limit * 255
        let darker = self == .plusDarker
        var largest = 0
        content.samples.withUnsafeBufferPointer { samples in
            var index = 0
            while index + 3 < samples.count, largest < stop {
                let alpha = Int(samples[index + 3])
                if alpha > 0 {
                    for channel in 0..<3 {
                        let c = Int(samples[index + channel])
                        largest = Swift.max(largest, (darker ? 255 - c : c) * alpha)
                    }
                }
                index += 4
            }
        }
        return largest / 255
    }

    /// The one-line warning for vibrant content that cannot show under this blend on `style` (a style's name): no
    /// pixel of it moves any backdrop by a whole level (``largestChange(of:atLeast:)`` is 0), so the picture is the same as
    /// without it. Nil when some pixel can show. The words say what to draw instead: dark content under
    /// plus-darker (the light styles), light content under plus-lighter (the dark style).
    public func invisibilityWarning(for content: RGBAImage<UInt8>, style: String) -> String? {
        guard largestChange(of: content, atLeast: 1) == 0 else { return nil }
        switch self {
        case .plusDarker:
            return
                "the vibrant content cannot show on \(style): its plus-darker blend only darkens, and the content is "
                + "white or transparent everywhere; draw it in black or grey"
        case .plusLighter:
            return
                "the vibrant content cannot show on \(style): its plus-lighter blend only lightens, and the content is "
                + "black or transparent everywhere; draw it in white or grey"
        }
    }
}
