import CHEIF

extension ImageDecoder {
    /// The pixels of every image a HEIF picture's decoding makes (tiles, canvases, inputs, alpha planes,
    /// transformations' copies, the RGBA picture) may be this many times the picture's own: a rotated grid with an
    /// alpha grid makes about 7.
    static let heifWorkFactor = 8

    /// Pixels a HEIF picture's decoding may make beyond ``heifWorkFactor`` times its own: tiles past a grid's edges,
    /// a small picture's large tiles (a 1×1 grid of one 4096×4096 tile).
    static let heifWorkAllowance = 1 << 24

    /// The primary image of a HEIF file (libheif with libde265, through `CHEIF`), as ``ImageDecoder`` promises.
    ///
    /// Contract:
    /// - Orientation: the `irot`, `imir` and `clap` transformations libheif applies; the picture is upright as a
    ///   viewer shows it (an EXIF orientation inside a HEIF is ignored, as HEIF prescribes).
    /// - Alpha: an alpha plane is kept, straight; without one, alpha is 255. 10- and 12-bit images come to 8 bits.
    /// - Colour: a `colr` box of ICC type converted to sRGB like a JPEG's profile; an nclx `colr` box's primaries and
    ///   transfer (H.273 codes) made into a profile (`bd_icc_profile_from_h273`) and converted the same way; an nclx
    ///   box Little CMS has no curve for (PQ, HLG) is one warning line and the samples taken as sRGB. Under `keep`
    ///   nothing is converted and the profile or the nclx codes are the answer's space.
    /// - Limits: before libheif reads the file, `bd_heif_plan_read` walks its boxes and sizes every image decoding
    ///   makes from the boxes themselves (a grid's or an overlay's canvas from its descriptor, tiles and inputs from
    ///   their `ispe`, each transformation's copy, alpha planes): each within `maxPixels`, their sum (the work) within
    ///   ``heifWorkFactor`` times the picture's pixels plus ``heifWorkAllowance``, the largest within the process's
    ///   memory; a grid's tiles must make its output; at most one irot, imir and clap an item, 1024 images decoded,
    ///   4096 items. The shown size is the boxes' (`ispe` the stored size, a quarter turn swapping it); a coded image
    ///   that decodes the other way round (the shown size in `ispe`, as libheif 1.15's encoder writes) is taken as
    ///   decoded; any other size is an error.
    func decodeHEIF(_ bytes: [UInt8], name: String, choice: ColorSpaceChoice) throws(BackdropError) -> (
        image: RGBAImage<UInt8>, space: PictureColorSpace
    ) {
        let result: Result<(image: RGBAImage<UInt8>, space: PictureColorSpace), BackdropError> =
            bytes.withUnsafeBufferPointer { buffer in
                var header = bd_heif_header()
                var message = [CChar](repeating: 0, count: 512)
                guard
                    let reader = bd_heif_reader_open(
                        buffer.baseAddress!, buffer.count, UInt64(png.appliedLimit), &header, &message, message.count)
                else { return .failure(BackdropError(.badInput, "\(name): \(String(cMessage: message))")) }
                defer { bd_heif_reader_close(reader) }
                let samples: [UInt8]
                do throws(BackdropError) {
                    let pixels = try checkedPixels(Int(header.width), Int(header.height), copies: 1, name: name)
                    let work = Int(clamping: header.work_pixels)
                    let allowed =
                        pixels.multipliedReportingOverflow(by: Self.heifWorkFactor).partialValue
                        + Self.heifWorkAllowance
                    guard work <= allowed else {
                        throw BackdropError(
                            .badInput,
                            "\(name): the HEIF picture is \(header.width)×\(header.height) pixels but decoding it makes "
                                + "\(work) pixels of images, over the limit of \(allowed)")
                    }
                    // libheif's planes of the largest image it makes (up to 4 bytes a pixel with alpha, 4:4:4), a
                    // transformed copy and its RGBA picture, and ours.
                    try ProcessMemory.check(
                        Int(clamping: header.largest_pixels) * 4 * 3 + pixels * 4, for: name,
                        what: "decoding the picture")
                    samples = try Self.readSamples(pixels: pixels, name: name, message: &message) {
                        bd_heif_reader_read(reader, $0, $1, $2)
                    }
                } catch { return .failure(error) }
                var decodedWidth: UInt32 = 0
                var decodedHeight: UInt32 = 0
                bd_heif_reader_size(reader, &decodedWidth, &decodedHeight)
                var image = RGBAImage(width: Int(decodedWidth), height: Int(decodedHeight), samples: samples)
                var profileSize = 0
                var nclx = bd_heif_nclx()
                if let profile = bd_heif_reader_icc_profile(reader, &profileSize) {
                    let space = ColorProfileConversion.handle(
                        &image, profile: UnsafeBufferPointer(start: profile, count: profileSize), choice: choice,
                        name: name)
                    return .success((image, space))
                }
                guard bd_heif_reader_nclx(reader, &nclx) == 1 else { return .success((image, .sRGB)) }
                let (primaries, transfer) = (Int(nclx.color_primaries), Int(nclx.transfer_characteristics))
                if choice == .keep {
                    return .success(
                        (image, ColorProfileConversion.keptCodes(primaries: primaries, transfer: transfer, name: name)))
                }
                if let profile = ColorProfileConversion.profile(primaries: primaries, transfer: transfer, name: name) {
                    profile.withUnsafeBufferPointer {
                        ColorProfileConversion.convertToSRGB(&image, profile: $0, name: name)
                    }
                }
                return .success((image, .sRGB))
            }
        return try result.get()
    }
}
