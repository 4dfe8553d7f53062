import CHEIF

extension ImageDecoder {
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
    /// - Limits: the `ispe` box's size (and the size after the transformations) is checked against `maxPixels`
    ///   and the process's memory before libheif decodes anything; a stream that decodes to another size than its
    ///   boxes declare is an error.
    func decodeHEIF(_ bytes: [UInt8], name: String, choice: ColorSpaceChoice) throws(BackdropError) -> (
        image: RGBAImage<UInt8>, space: PictureColorSpace
    ) {
        let result: Result<(image: RGBAImage<UInt8>, space: PictureColorSpace), BackdropError> =
            bytes.withUnsafeBufferPointer { buffer in
                var header = bd_heif_header()
                var message = [CChar](repeating: 0, count: 512)
                let side = UInt32(clamping: png.appliedLimit)
                guard
                    let reader = bd_heif_reader_open(
                        buffer.baseAddress!, buffer.count, side, &header, &message, message.count)
                else { return .failure(BackdropError(.badInput, "\(name): \(String(cMessage: message))")) }
                defer { bd_heif_reader_close(reader) }
                let width = Int(header.width), height = Int(header.height)
                let samples: [UInt8]
                do throws(BackdropError) {
                    // libheif's planes (up to 4 bytes a pixel with alpha, 4:4:4), its RGBA picture, a transformed copy,
                    // and ours.
                    _ = try checkedPixels(Int(header.coded_width), Int(header.coded_height), copies: 4, name: name)
                    let pixels = try checkedPixels(width, height, copies: 1, name: name)
                    samples = try Self.readSamples(pixels: pixels, name: name, message: &message) {
                        bd_heif_reader_read(reader, $0, $1, $2)
                    }
                } catch { return .failure(error) }
                var image = RGBAImage(width: width, height: height, samples: samples)
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
                    return .success((image, ColorProfileConversion.keptCodes(primaries: primaries, transfer: transfer)))
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
