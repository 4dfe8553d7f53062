import Backdrop
import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The bytes every render mode writes and the lines it prints, recorded before the front ends were rebuilt on
/// ``RenderRequest`` and held since: a refactoring of how requests are read must not change one byte of what they
/// draw. A changed entry is a changed output; update the table only for a change meant to change pictures. Issue 45
/// changed four on purpose: the two shadowed photos tables (shadows drawn by ``ShadowRule``) and two
/// `navbar-tabbar-blur` screens (its bars laid out on each screen, ``SceneLayout``: the iPad Air's bars span its
/// width, the iPhone 4's tab bar sits at its bottom). Issue 49 changed one file's bytes, not its pixels: the iPad
/// Air's 2048×1536 screen (`scene-scroll-tint-only`), whose filtered rows pass 4 MiB, is deflated in strips, and again
/// when the strips became a multiple of 4 of equal length. Issue 46
/// changed extraLight's tint alpha to the system's 0.80 (no recorded case draws extraLight's blur, so no picture
/// changed) and one printed line: the known styles an unknown one lists now end with glass and clearGlass. Issue 50
/// changed printed lines, not bytes: the render lines say how they drew in words ("blurred downsampled 4×" for
/// "k = 4", "three box blurs 19 px wide" for "box 19×3", "effect views blurred"). Issue 46's text on glass added three
/// entries (vibrant content over glass with and without a level, glass under Reduce Transparency) and changed none.
/// Issue 49's review added six entries for outputs that had none: Reduce Transparency on light and on
/// systemMaterial, Increase Contrast over systemMaterial, and `--color-space keep` from the Display P3 screenshot to
/// PNG, JPEG and WebP (`P3`). The JPEG and WebP hashes are also libjpeg-turbo's and libwebp's (Debian 12's builds,
/// which `scripts/install-deps` installs): a new release of either may change them with no change in Backdrop.
/// Issue 46's speed work on glass changed its three entries on purpose: the face's colour runs on the blurred small
/// image before the upscale (``GlassFaceColour``, within 2 levels of the face per output pixel), and glass's k is a
/// multiple of 4 (clear glass at scale 1: "downsampled 4×" for "3×"). Changed again on purpose: the rim's refraction
/// is read on the blurred small image too (`GlassRefraction`), and the edge's band per pixel takes the face's colour
/// from the blurred image rather than from the composite's bytes (glass under Reduce Transparency: 90 pixels by 1
/// level). Issue 49's fast encoder changed the bytes, not the pixels, of every 8-bit file written at `--compression
/// fast` on purpose (`compression-fast`, `scene-scroll-tint-only` and the seven `preview/` pictures, which the preview
/// serves at fast): those files come from `CLibPNG/backdrop_png_fast_encoder.c` instead of libdeflate's level 1.
/// Then `--compression default` moved to that encoder too (8-bit files; `fast` writes the same bytes): every other
/// PNG entry changed its bytes, not its pixels (PNGFastEncoderTests decodes its files back to the pictures, and the
/// wallpaper's render to libdeflate's pixels). Issue 46 changed `glass-vibrancy` on purpose: regular glass at scale 1
/// blurs at half size rather than full ("downsampled 2×", ``RenderPlan/glassDownscaleFactor(sigmaPixels:)``), at
/// most 3 levels from the bytes before (PSNR 68.5 dB). Issue 68 changed `increase-contrast-material` on purpose: the
/// glyphs' opaque pixels now move by the level's raised alpha too (their weight was capped at 1).
@Suite("Output bytes: every render mode, the same bytes as recorded")
struct OutputBytesTests {
    /// A command's arguments with `IN`, `P3`, `GLYPHS`, `MASK` and `DIR` standing for the files and folder of one run;
    /// the output is the file after `-o`.
    static let commands: [(name: String, arguments: [String])] = [
        ("picture", ["render", "IN", "-o", "DIR/out.png", "--style", "dark", "--frame", "50,100,500,200"]),
        ("scale-2", ["render", "IN", "-o", "DIR/out.png", "--style", "light", "--scale", "2"]),
        (
            "custom",
            [
                "render", "IN", "-o", "DIR/out.png", "--style", "custom", "--sigma", "12", "--saturation", "1.3",
                "--tint", "1,0.9,0.8", "--tint-alpha", "0.3", "--fallback-alpha", "0.5", "--vibrancy-blend",
                "plusLighter", "--frame", "10,10,300,200",
            ]
        ),
        ("exact", ["render", "IN", "-o", "DIR/out.png", "--style", "light", "--exact", "--frame", "0,0,200,100"]),
        ("tint-only", ["render", "IN", "-o", "DIR/out.png", "--style", "extraLight", "--tint-only"]),
        ("path-tint-only", ["render", "IN", "-o", "DIR/out.png", "--style", "dark", "--path", "tint-only"]),
        ("device-ipad-3", ["render", "IN", "-o", "DIR/out.png", "--style", "light", "--device", "ipad-3"]),
        ("device-iphone-5s", ["render", "IN", "-o", "DIR/out.png", "--style", "dark", "--device", "iphone-5s"]),
        (
            "vibrancy",
            [
                "render", "IN", "-o", "DIR/out.png", "--style", "dark", "--frame", "50,100,500,200", "--vibrancy",
                "GLYPHS", "--at", "60,120",
            ]
        ),
        ("vibrancy-corner", ["render", "IN", "-o", "DIR/out.png", "--style", "light", "--vibrancy", "GLYPHS"]),
        (
            "glass-vibrancy",
            [
                "render", "IN", "-o", "DIR/out.png", "--style", "glass", "--frame", "40,60,500,220", "--vibrancy",
                "GLYPHS", "--at", "60,80",
            ]
        ),
        (
            "glass-vibrancy-level",
            [
                "render", "IN", "-o", "DIR/out.png", "--style", "clearGlass", "--appearance", "dark", "--frame",
                "40,60,500,220", "--corner-radius", "24", "--vibrancy", "GLYPHS", "--at", "60,80", "--vibrancy-style",
                "secondaryLabel",
            ]
        ),
        (
            "glass-reduce-transparency",
            [
                "render", "IN", "-o", "DIR/out.png", "--style", "glass", "--frame", "40,60,500,220",
                "--reduce-transparency",
            ]
        ),
        ("depth-16", ["render", "IN", "-o", "DIR/out.png", "--style", "light", "--depth", "16", "--scale", "2"]),
        ("compression-fast", ["render", "IN", "-o", "DIR/out.png", "--style", "dark", "--compression", "fast"]),
        (
            "image-effects-tint",
            [
                "render", "IN", "-o", "DIR/out.png", "--algorithm", "image-effects", "--style", "tint", "--tint",
                "0.2,0.4,0.9", "--frame", "100,50,300,200",
            ]
        ),
        (
            "image-effects-mask",
            [
                "render", "IN", "-o", "DIR/out.png", "--algorithm", "image-effects", "--style", "dark", "--frame",
                "100,50,300,200", "--mask", "MASK",
            ]
        ),
        (
            "image-effects-custom",
            [
                "render", "IN", "-o", "DIR/out.png", "--algorithm", "image-effects", "--style", "custom", "--sigma",
                "8", "--saturation", "1.5", "--tint", "0.1,0.2,0.3", "--tint-alpha", "0.4", "--device", "iphone-5",
            ]
        ),
        (
            "scene-show-offscreen",
            [
                "render", "--scene", "contacts-table-masks", "--device", "iphone-4s", "--show", "offscreen", "-o",
                "DIR/out.png",
            ]
        ),
        ("scene", ["render", "--scene", "navbar-tabbar-blur", "--device", "iphone-5", "-o", "DIR/out.png"]),
        (
            "scene-rasterized-steady",
            [
                "render", "--scene", "photos-table-shadows", "--device", "iphone-5", "--show", "rasterized",
                "--steady", "-o", "DIR/out.png",
            ]
        ),
        (
            "scene-scroll-tint-only",
            [
                "render", "--scene", "navbar-tabbar-blur", "--device", "ipad-air", "--scroll-offset", "40", "--path",
                "tint-only", "--show", "blended", "--compression", "fast", "-o", "DIR/out.png",
            ]
        ),
        (
            "reduce-transparency-light",
            ["render", "IN", "-o", "DIR/out.png", "--style", "light", "--reduce-transparency"]
        ),
        (
            "reduce-transparency-material",
            ["render", "IN", "-o", "DIR/out.png", "--style", "systemMaterial", "--reduce-transparency"]
        ),
        (
            "increase-contrast-material",
            [
                "render", "IN", "-o", "DIR/out.png", "--style", "systemMaterial", "--vibrancy", "GLYPHS", "--at",
                "60,40", "--vibrancy-style", "tertiaryLabel", "--increase-contrast",
            ]
        ),
        ("keep-png", ["render", "P3", "-o", "DIR/out.png", "--style", "dark", "--color-space", "keep"]),
        ("keep-jpeg", ["render", "P3", "-o", "DIR/out.jpg", "--style", "dark", "--color-space", "keep"]),
        ("keep-webp", ["render", "P3", "-o", "DIR/out.webp", "--style", "dark", "--color-space", "keep"]),
    ]

    /// More commands whose output is a folder: a batch, and a golden manifest's `check --update all`.
    static let batch = [
        "render", "IN", "ASTRONAUT", "--output-dir", "DIR/batch", "--style", "dark", "--frame", "0,0,300,200",
    ]

    /// Golden manifest cases (JSON objects), recorded by `check --update all`.
    static let manifestCases = [
        #"{"input": "coffee.png", "golden": "g/light.png", "style": "light", "frame": "50,100,500,200", "scale": 2}"#,
        #"{"input": "coffee.png", "golden": "g/custom.png", "style": "custom", "sigma": 9, "saturation": 1.4, "tint": "0.5,0.5,1", "tint-alpha": 0.2, "vibrancy-blend": "plusLighter", "vibrancy": "glyphs.png", "at": "20,30"}"#,
        #"{"input": "coffee.png", "golden": "g/exact.png", "style": "dark", "quality": "exact", "device": "iphone-4", "path": "blur"}"#,
        #"{"input": "coffee.png", "golden": "g/device.png", "style": "extraLight", "device": "ipad-3"}"#,
        #"{"input": "coffee.png", "golden": "g/ie.png", "algorithm": "image-effects", "style": "tint", "tint": "0.2,0.4,0.9", "frame": "100,50,300,200", "mask": "mask.png"}"#,
        #"{"scene": "contacts-table-masks", "device": "iphone-5", "golden": "g/scene.png", "show": "offscreen"}"#,
        #"{"scene": "photos-table-shadows", "device": "iphone-4s", "golden": "g/steady.png", "show": "rasterized", "steady": true, "path": "tint-only"}"#,
    ]

    /// The preview's `/render.png` and `/scene.png` queries.
    static let previewQueries = [
        "render.png?style=dark&frame=100,300,800,300&scale=2", "render.png?style=light&exact=1&frame=0,0,200,100",
        "render.png?style=extraLight&path=tint-only", "render.png?style=light&device=ipad-3",
        "render.png?style=custom&sigma=12&saturation=1.2&tint=0,0,0&tint-alpha=0.3&fallback-alpha=0.5"
            + "&vibrancy-blend=plusLighter&path=tint-only&device=iphone-4",
        "render.png?algorithm=image-effects&style=tint&tint=0.2,0.4,0.9&frame=100,50,300,200",
        "scene.png?scene=contacts-table-masks&device=iphone-5&show=misaligned",
        "scene.png?scene=navbar-tabbar-blur&device=iphone-4&steady=1&show=offscreen&path=blur",
    ]

    /// Commands every front end refuses, each with its one line on standard error.
    static let refusals: [[String]] = [
        ["IN", "--show", "offscreen"], ["IN", "--depth", "12"], ["IN", "--frame", "1,2,3"], ["--style", "dark"],
        ["IN", "--style", "bogus"], ["IN", "--sigma", "3"], ["IN", "--style", "custom", "--sigma", "3"],
        ["IN", "--at", "1,2"], ["IN", "--device", "nope"], ["IN", "--tint-only", "--path", "blur"],
        ["IN", "--algorithm", "image-effects", "--exact"],
        ["IN", "--algorithm", "image-effects", "--vibrancy", "GLYPHS"],
        ["IN", "--algorithm", "image-effects", "--tint-only"],
        ["IN", "--algorithm", "image-effects", "--path", "blur"],
        ["IN", "--algorithm", "image-effects", "--depth", "16"], ["IN", "--mask", "MASK"],
        ["IN", "--algorithm", "image-effects", "--style", "tint"], ["IN", "--vibrancy", "GLYPHS", "--at", "5000,5000"],
        ["--scene", "navbar-tabbar-blur", "--device", "iphone-5", "--frame", "0,0,1,1"],
        ["--scene", "navbar-tabbar-blur", "--device", "iphone-5", "IN"],
        ["--scene", "navbar-tabbar-blur", "--device", "iphone-5", "--style", "dark"],
        ["--scene", "navbar-tabbar-blur", "--device", "iphone-5", "--exact"],
        ["--scene", "navbar-tabbar-blur", "--device", "iphone-5", "--depth", "16"],
        ["--scene", "navbar-tabbar-blur", "--device", "iphone-5", "--time", "3"],
        ["--scene", "navbar-tabbar-blur"],
        ["--scene", "navbar-tabbar-blur", "--device", "iphone-5", "--scroll-offset", "1e9"],
        ["--scene", "nope", "--device", "iphone-5"],
    ]

    /// SHA-256 of each output, and what its command printed with the run's folder written `DIR`.
    static let recorded: [String: (sha256: String, printed: String)] = [
        "picture": (
            "a0859a48f80f1d6bb20a747c86f283ee8f2822d65382a69d684555cb35b24478",
            "wrote DIR/out.png (600×400, dark, blurred downsampled 4×, frame 50,100,500,200)\n"
        ),
        "scale-2": (
            "cc7406759c68213481f1ddcca24af6bc0e1375d40331332e1aab03c37612de63",
            "wrote DIR/out.png (600×400, light, blurred downsampled 12×, frame 0,0,600,400)\n"
        ),
        "custom": (
            "af49115f0678dda7acf23a24c42b529e1921440503d616d2a18fd56b78c76319",
            "wrote DIR/out.png (600×400, custom, blurred downsampled 2×, frame 10,10,300,200)\n"
        ),
        "exact": (
            "4faa2d033626ab827f6351fc541c1ead1a4f508b09b371cefd816f2c374cabf2",
            "wrote DIR/out.png (600×400, light, blurred at full size, frame 0,0,200,100)\n"
        ),
        "tint-only": (
            "66e7628522236e79922f5f67fe3d141b987db45459c75e7017328b874701da91",
            "wrote DIR/out.png (600×400, extraLight, tint-only, frame 0,0,600,400)\n"
        ),
        "path-tint-only": (
            "6789ba04654a3e59bcb6274df75303d1afaae4f1d4029b167ab62e8d579f93bd",
            "wrote DIR/out.png (600×400, dark, tint-only, frame 0,0,600,400)\n"
        ),
        "device-ipad-3": (
            "9ae843c83cf0f6d232ee7672173bc746e1adf575bca1b8fdc9ccd27192e368a7",
            "wrote DIR/out.png (600×400, light, tint-only, frame 0,0,600,400; ipad-3: tint-only, as Apple\'s iOS 7 shipped it (seed B4))\n"
        ),
        "device-iphone-5s": (
            "093c283d208f58c1122c8766c871b7846b3d1e936cc2874b20b9a39e76a5448b",
            "wrote DIR/out.png (600×400, dark, blurred downsampled 8×, frame 0,0,600,400; iphone-5s: blur, as Apple\'s iOS 7 shipped it (seed B4))\n"
        ),
        "vibrancy": (
            "90aaa176bdaf4e48e1eaa7076fb63a6b13cfc9ee81aa46c80fb6986d1380320f",
            "wrote DIR/out.png (600×400, dark, blurred downsampled 4×, frame 50,100,500,200)\n"
        ),
        "vibrancy-corner": (
            "8e0eb5a72cfa1a9d48b00b05391383757d20bf88838b2d388062d8bf3a3fe40a",
            "wrote DIR/out.png (600×400, light, blurred downsampled 6×, frame 0,0,600,400)\n"
        ),
        "glass-vibrancy": (
            "5a2d726da83cf15c363681f3d9390ab28e7922d7b9354db27b414444df1aa870",
            "wrote DIR/out.png (600×400, glass, blurred downsampled 2×, frame 40,60,500,220; Liquid Glass is an approximation: macOS 26\'s glass numbers, not measured on iOS (see docs/styles.md))\n"
        ),
        "glass-vibrancy-level": (
            "f02c53073e9718802dc3636a67b24b7e5766c5d3af4b387e2ba423aa69c4dbdb",
            "wrote DIR/out.png (600×400, clearGlass, blurred downsampled 4×, frame 40,60,500,220; Liquid Glass is an approximation: macOS 26\'s glass numbers, not measured on iOS (see docs/styles.md))\n"
        ),
        "glass-reduce-transparency": (
            "5dae74c06a1c758479cb36bf7ce3d162e7ad2bf419110d8e5b1bd678f1f31f0b",
            "wrote DIR/out.png (600×400, glass, tint-only, reduce transparency, frame 40,60,500,220; Liquid Glass is an approximation: macOS 26\'s glass numbers, not measured on iOS (see docs/styles.md))\n"
        ),
        "depth-16": (
            "ffc0c3f4cdc3ba37607f84b0fbfe641f81c6a9818cc626e635545c579dc8c6bd",
            "wrote DIR/out.png (600×400, light, blurred downsampled 12×, frame 0,0,600,400)\n"
        ),
        "compression-fast": (
            "ac04da3e066a166e50cf32c4f36db75c39128159278683c20e6b799b2c649df8",
            "wrote DIR/out.png (600×400, dark, blurred downsampled 4×, frame 0,0,600,400)\n"
        ),
        "image-effects-tint": (
            "78d7aa0b93e2c3c22b8e37e7567f0ef45eeaeca597b867bea6be0030d05047a0",
            "wrote DIR/out.png (600×400, tint, image-effects, frame 100,50,300,200, three box blurs 19 px wide)\n"
        ),
        "image-effects-mask": (
            "2e92783b1eadc00be9836df4cf995ff48d873e002b57a65af306b1d4153fbccb",
            "wrote DIR/out.png (600×400, dark, image-effects, frame 100,50,300,200, three box blurs 39 px wide)\n"
        ),
        "image-effects-custom": (
            "9b3e827e83c86719fde26fba1ea69e1b7066de0819edec80017650f7ebb23c0f",
            "wrote DIR/out.png (600×400, custom, image-effects, frame 0,0,600,400, three box blurs 31 px wide; iphone-5: blur, as Apple\'s iOS 7 shipped it (seed B4))\n"
        ),
        "scene-show-offscreen": (
            "4c70a088ff641b40d6b8ca0c3c0b96036e6dfb095d3f3014e067600c49bf5492",
            "wrote DIR/out.png (640×960, contacts-table-masks on iphone-4s, 23 layers, effect views blurred, --show offscreen)\n"
        ),
        "scene": (
            "e85d12068bfc2ca78c775afae975423a6ad5a747445a796bb2c3de28902c3fb3",
            "wrote DIR/out.png (640×1136, navbar-tabbar-blur on iphone-5, 35 layers, effect views blurred)\n"
        ),
        "scene-rasterized-steady": (
            "d50057e3bcd746bd23178dce71e0960db0cfd759428c4891e9e9a0a0bff3c7a5",
            "wrote DIR/out.png (640×1136, photos-table-shadows on iphone-5, 23 layers, effect views blurred, --show rasterized)\n"
        ),
        "scene-scroll-tint-only": (
            "f6edb498389d7d087e955e7b5cc005852521d0e1b972dc5338ef7f317f2a7611",
            "wrote DIR/out.png (2048×1536, navbar-tabbar-blur on ipad-air, 37 layers, effect views tint-only, --show blended)\n"
        ),
        "reduce-transparency-light": (
            "ec8de22333f8da2ec85ad5a2126daf260a0540de5fdb3d116d7427f817a3fffb",
            "wrote DIR/out.png (600×400, light, tint-only, reduce transparency, frame 0,0,600,400)\n"
        ),
        "reduce-transparency-material": (
            "82b3e945d0c34dc62f13a56ca17b80d515b6714dd434b2d71c7b8cb521386a2b",
            "wrote DIR/out.png (600×400, systemMaterial, tint-only, reduce transparency, frame 0,0,600,400)\n"
        ),
        "increase-contrast-material": (
            "76c8b5d5e6ab91d0259cd1cb475a4527be70f374651e5a78f39eec1b5c891794",
            "wrote DIR/out.png (600×400, systemMaterial, blurred downsampled 4×, increase contrast, frame 0,0,600,400)\n"
        ),
        "keep-png": (
            "1a8b0dee12700a2cdd681596d778bf8343666ec3710a6c4f355c82fe8bc86132",
            "wrote DIR/out.png (293×634, dark, blurred downsampled 4×, frame 0,0,293,634)\n"
        ),
        "keep-jpeg": (
            "df73b19cc6c4369ba6da37f45fd937b59715138efa39b1179bfcaaa5f1a51166",
            "wrote DIR/out.jpg (293×634, dark, blurred downsampled 4×, frame 0,0,293,634)\n"
        ),
        "keep-webp": (
            "8015bb87b669e5a582f6a02f4d1f85046fb4a79a9c8258187d1cd2b80ba7e113",
            "wrote DIR/out.webp (293×634, dark, blurred downsampled 4×, frame 0,0,293,634)\n"
        ),
        "refused IN --show offscreen": ("", "backdrop: error: --show, --steady and --scroll-offset go with --scene\n"),
        "refused IN --depth 12": ("", "backdrop: error: --depth 12 must be 8 or 16\n"),
        "refused IN --frame 1,2,3": (
            "", "backdrop: error: --frame \'1,2,3\' is not x,y,w,h (four whole numbers, each within ±2147483648)\n"
        ),
        "refused --style dark": ("", "backdrop: error: give the PNG to render (see \'backdrop render --help\')\n"),
        "refused IN --style bogus": (
            "",
            "backdrop: error: unknown style \'bogus\' (known: extraLight, light, dark, regular, prominent, systemUltraThinMaterial, systemThinMaterial, systemMaterial, systemThickMaterial, systemChromeMaterial, systemUltraThinMaterialLight, systemThinMaterialLight, systemMaterialLight, systemThickMaterialLight, systemChromeMaterialLight, systemUltraThinMaterialDark, systemThinMaterialDark, systemMaterialDark, systemThickMaterialDark, systemChromeMaterialDark, glass, clearGlass, custom)\n"
        ),
        "refused IN --sigma 3": (
            "", "backdrop: error: --sigma, --saturation, --tint and --tint-alpha go with --style custom\n"
        ),
        "refused IN --style custom --sigma 3": (
            "", "backdrop: error: --style custom needs --sigma, --saturation, --tint and --tint-alpha\n"
        ),
        "refused IN --at 1,2": ("", "backdrop: error: --at goes with --vibrancy\n"),
        "refused IN --device nope": (
            "", "backdrop: error: unknown device \'nope\' (see \'backdrop devices\' for the ids)\n"
        ),
        "refused IN --tint-only --path blur": ("", "backdrop: error: --tint-only contradicts --path blur\n"),
        "refused IN --algorithm image-effects --exact": (
            "", "backdrop: error: --exact is for the system algorithm, not image-effects\n"
        ),
        "refused IN --algorithm image-effects --vibrancy GLYPHS": (
            "", "backdrop: error: --vibrancy is for the system algorithm, not image-effects\n"
        ),
        "refused IN --algorithm image-effects --tint-only": (
            "", "backdrop: error: --tint-only is for the system algorithm, not image-effects\n"
        ),
        "refused IN --algorithm image-effects --path blur": (
            "", "backdrop: error: --path is for the system algorithm, not image-effects\n"
        ),
        "refused IN --algorithm image-effects --depth 16": (
            "", "backdrop: error: --depth 16 is for the system algorithm, not image-effects\n"
        ),
        "refused IN --mask MASK": ("", "backdrop: error: --mask goes with --algorithm image-effects\n"),
        "refused IN --algorithm image-effects --style tint": ("", "backdrop: error: --style tint needs --tint r,g,b\n"),
        "refused IN --vibrancy GLYPHS --at 5000,5000": (
            "",
            "backdrop: error: the vibrant content (480×160 at 5000,5000) lies wholly outside the frame 0,0,600,400 (x,y,w,h)\n"
        ),
        "refused --scene navbar-tabbar-blur --device iphone-5 --frame 0,0,1,1": (
            "", "backdrop: error: --scene draws the scene\'s own layers and effect views: leave out --frame\n"
        ),
        "refused --scene navbar-tabbar-blur --device iphone-5 IN": (
            "", "backdrop: error: --scene draws the scene\'s own layers and effect views: leave out an input PNG\n"
        ),
        "refused --scene navbar-tabbar-blur --device iphone-5 --style dark": (
            "", "backdrop: error: --scene draws the scene\'s own layers and effect views: leave out --style\n"
        ),
        "refused --scene navbar-tabbar-blur --device iphone-5 --exact": (
            "", "backdrop: error: --scene draws the scene\'s own layers and effect views: leave out --exact\n"
        ),
        "refused --scene navbar-tabbar-blur --device iphone-5 --depth 16": (
            "", "backdrop: error: --scene draws the scene\'s own layers and effect views: leave out --depth\n"
        ),
        "refused --scene navbar-tabbar-blur --device iphone-5 --time 3": (
            "", "backdrop: error: --scene draws the scene\'s own layers and effect views: leave out --time\n"
        ),
        "refused --scene navbar-tabbar-blur": (
            "", "backdrop: error: --scene needs --device ID (see \'backdrop devices\')\n"
        ),
        "refused --scene navbar-tabbar-blur --device iphone-5 --scroll-offset 1e9": (
            "", "backdrop: error: --scroll-offset 1000000000.0 is out of range (±1000000 points)\n"
        ),
        "refused --scene nope --device iphone-5": (
            "",
            "backdrop: error: unknown scene \'nope\' (built in: photos-table-shadows, photos-table-shadow-path, contacts-table-masks, contacts-table-overlay, navbar-tabbar-blur, control-center, photos-table-rasterized, rasterized-pages, static-spinner; or a path to a JSON file)\n"
        ),
        "batch/coffee.png": ("30e08b19de200efd61a7755eaefeffc509e6ae7a6e3fbc11bd7c67e0d488b759", ""),
        "batch/astronaut.png": ("8449cf3a79fdc2b601d6d6e1fce4841c81d390ca3b2c2ba5a80d089aee72df5b", ""),
        "batch": (
            "",
            "rendered 2 of 2 files into DIR/batch\nwrote DIR/batch/astronaut.png (512×512, dark, blurred downsampled 4×, frame 0,0,300,200)\nwrote DIR/batch/coffee.png (600×400, dark, blurred downsampled 4×, frame 0,0,300,200)"
        ),
        "golden/light": ("2105d5a96411bf3beae6277cff75b892be4df2f7e883a799df04fed8f9fe0eb3", ""),
        "golden/custom": ("511055eae357230a5a163e38569bb56d6c620cc8cbe56e9dea318a2c657882e9", ""),
        "golden/exact": ("5fddbe082fd57dade8f70d1f694f8ce9ffd4f48cb167f8f463798f7a075e041d", ""),
        "golden/device": ("66e7628522236e79922f5f67fe3d141b987db45459c75e7017328b874701da91", ""),
        "golden/ie": ("91e3e8b7c876835c2a866b1e378458287009f2cb53ca3a7382a3ecf293be09a2", ""),
        "golden/scene": ("f451a46fcedf6c7e8c259b756a5353125a07fbfc7c4e5c7d014d17ae0a3d1d2c", ""),
        "golden/steady": ("087168b0e57e0c397183f537f62b8b1b4ae9c40993485198f0ca3de4b9b0485d", ""),
        "preview/render.png?style=dark&frame=100,300,800,300&scale=2": (
            "4853a3af2ec679e7ade64730e7c99ba1af1f3e979ba48ecef4af24405435ca6b", ""
        ),
        "preview/render.png?style=light&exact=1&frame=0,0,200,100": (
            "eeaeb35bd870090758170ef7c6a7cc3116690d023a4026e5c8d702313a12ae8a", ""
        ),
        "preview/render.png?style=extraLight&path=tint-only": (
            "d02151398197f8eb2b1d64c50f995973f100bba240a465ec750f7de9e824f5ac", ""
        ),
        "preview/render.png?style=light&device=ipad-3": (
            "e561dec2b80d5320b8bcc01473ce5f7924b291c7f3d5ff6e38e208de5d6ccadc", ""
        ),
        "preview/render.png?style=custom&sigma=12&saturation=1.2&tint=0,0,0&tint-alpha=0.3&fallback-alpha=0.5&vibrancy-blend=plusLighter&path=tint-only&device=iphone-4":
            ("859d3db77d5e2f9539ac141109a7f39cd6a1ac1d0dceb94175946ff1b22c037a", ""),
        "preview/render.png?algorithm=image-effects&style=tint&tint=0.2,0.4,0.9&frame=100,50,300,200": (
            "32e25506d818393180832db105452c642153b83f1e6a3cb043cbceed38449cc1", ""
        ),
        "preview/scene.png?scene=contacts-table-masks&device=iphone-5&show=misaligned": (
            "5b9f9b9f61cbc5c55b55fd73d78976dbba15be54dcbbf8118cf06c4fc445f1b4", ""
        ),
        "preview/scene.png?scene=navbar-tabbar-blur&device=iphone-4&steady=1&show=offscreen&path=blur": (
            "6e4af49e3a8459c4e116613bd1665c9d5ce932c431e89e35a956b388f31c26df", ""
        ),
    ]

    @Test func everyRenderModeWritesTheRecordedBytes() async throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try Self.files(in: directory)
        var table: [(String, String, String)] = []
        for (name, arguments) in Self.commands {
            let substituted = arguments.map { Self.substitute($0, files) }
            let output = try #require(substituted.firstIndex(of: "-o").map { substituted[$0 + 1] })
            try? FileManager.default.removeItem(atPath: output)
            let run = try runCLI(substituted)
            #expect(run.status == 0, "\(name): \(run.standardError)")
            table.append((name, try Self.digest(file: output), Self.printed(run, files)))
        }
        for arguments in Self.refusals {
            let run = try runCLI((["render"] + arguments + ["-o", "DIR/out.png"]).map { Self.substitute($0, files) })
            #expect(run.status != 0, "\(arguments): accepted")
            table.append(("refused " + arguments.joined(separator: " "), "", Self.printed(run, files, \.standardError)))
        }
        let batch = try runCLI(Self.batch.map { Self.substitute($0, files) })
        #expect(batch.status == 0, "batch: \(batch.standardError)")
        for name in ["coffee.png", "astronaut.png"] {
            table.append(("batch/" + name, try Self.digest(file: files.directory + "/batch/" + name), ""))
        }
        // The files finish in either order: the lines are compared sorted.
        let batchLines = Self.printed(batch, files).split(separator: "\n").sorted().joined(separator: "\n")
        table.append(("batch", "", batchLines))

        try FileManager.default.copyItem(atPath: files.input, toPath: files.directory + "/coffee.png")
        try FileManager.default.copyItem(atPath: files.glyphs, toPath: files.directory + "/glyphs.png")
        let manifest = files.directory + "/manifest.json"
        try Data(#"{ "cases": [ \#(Self.manifestCases.joined(separator: ", ")) ] }"#.utf8)
            .write(to: URL(fileURLWithPath: manifest))
        let check = try runCLI(["check", manifest, "--update", "all"])
        #expect(check.status == 0, "check: \(check.standardOutput)\(check.standardError)")
        for name in ["light", "custom", "exact", "device", "ie", "scene", "steady"] {
            table.append(("golden/" + name, try Self.digest(file: files.directory + "/g/\(name).png"), ""))
        }

        let server = try PreviewProcess()
        defer { server.stop() }
        for query in Self.previewQueries {
            let (data, response) = try await URLSession.shared.data(from: URL(string: server.address + query)!)
            #expect(
                (response as! HTTPURLResponse).statusCode == 200, "\(query): \(String(decoding: data, as: UTF8.self))")
            table.append(("preview/" + query, try Self.digest(data), ""))
        }

        var literal: [String] = []
        for (name, sha256, printed) in table {
            literal.append("        \"\(name)\": (\"\(sha256)\", \(String(reflecting: printed))),")
            #expect(Self.recorded[name]?.sha256 == sha256, "\(name): the bytes changed (SHA-256 \(sha256))")
            #expect(Self.recorded[name]?.printed == printed, "\(name): printed \(String(reflecting: printed))")
        }
        #expect(
            Self.recorded.count == table.count, "the table has \(Self.recorded.count) entries, the run \(table.count)")
        if Self.recorded.count != table.count || table.contains(where: { Self.recorded[$0.0]?.sha256 != $0.1 }) {
            print("OutputBytesTests: the table this run made:\n" + literal.joined(separator: "\n"))
        }
    }

    typealias Files = (directory: String, input: String, astronaut: String, glyphs: String, mask: String)

    /// The files a run reads: the inputs, the vibrant content, and a mask written afresh.
    static func files(in directory: URL) throws -> Files {
        let input = Fixtures.path("photos/coffee.png")
        let astronaut = Fixtures.path("photos/astronaut.png")
        let glyphs = Fixtures.path("photos/glyphs-alpha.png")
        for path in [input, astronaut, glyphs] where !FileManager.default.fileExists(atPath: path) {
            throw FixtureMissing(path: path)
        }
        let mask = directory.appendingPathComponent("mask.png").path
        try PNGEncoder().write(noiseImage(width: 300, height: 200, seed: 5, alpha: true), to: mask)
        return (directory.path, input, astronaut, glyphs, mask)
    }

    static func substitute(_ argument: String, _ files: Files) -> String {
        switch argument {
        case "IN": return files.input
        case "P3": return Fixtures.path("png-color/screenshot-p3.png")
        case "ASTRONAUT": return files.astronaut
        case "GLYPHS": return files.glyphs
        case "MASK": return files.mask
        default: return argument.replacingOccurrences(of: "DIR", with: files.directory)
        }
    }

    /// What a run printed, its folder and input files written as the placeholders.
    static func printed(_ run: CLIResult, _ files: Files, _ stream: KeyPath<CLIResult, String> = \.standardOutput)
        -> String
    {
        run[keyPath: stream].replacingOccurrences(of: files.directory, with: "DIR")
            .replacingOccurrences(of: files.input, with: "IN").replacingOccurrences(of: files.glyphs, with: "GLYPHS")
    }

    static func digest(file: String) throws -> String {
        try digest(Data(contentsOf: URL(fileURLWithPath: file)))
    }

    /// SHA-256 by the system's `sha256sum`.
    static func digest(_ data: Data) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("backdrop-sha-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try runProcess("/usr/bin/sha256sum", [file.path])
        return String(run.output.prefix(64))
    }
}
