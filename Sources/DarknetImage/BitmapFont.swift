/// A 5x7 bitmap font for printable ASCII (0x20...0x7E), drawn for this library.
///
/// Each glyph is 7 rows of 5 pixels packed into the low 35 bits of a `UInt64`, top row in
/// the highest bits, leftmost pixel in the highest bit of its row. Glyphs sit in a 6x8 cell
/// (one column and one row of spacing). Characters outside the table draw as `?`.
public enum BitmapFont {
    /// Glyph width in pixels, without spacing.
    public static let glyphWidth = 5
    /// Glyph height in pixels, without spacing.
    public static let glyphHeight = 7
    /// Horizontal advance per character (glyph plus one column of spacing).
    public static let advance = 6
    /// Line height (glyph plus one row of spacing).
    public static let lineHeight = 8

    /// Whether the pixel at column `x` (0...4), row `y` (0...6) of `character` is set.
    public static func isSet(_ character: Character, x: Int, y: Int) -> Bool {
        guard (0..<glyphWidth).contains(x), (0..<glyphHeight).contains(y) else { return false }
        let bits = glyph(for: character)
        let shift = (glyphHeight - 1 - y) * glyphWidth + (glyphWidth - 1 - x)
        return (bits >> UInt64(shift)) & 1 == 1
    }

    /// Size in pixels of `text` drawn at `scale` (no trailing spacing).
    public static func size(of text: String, scale: Int = 1) -> (width: Int, height: Int) {
        let count = text.count
        guard count > 0 else { return (0, 0) }
        return ((count * advance - 1) * scale, glyphHeight * scale)
    }

    /// The packed glyph for `character` (`?` for anything outside printable ASCII).
    static func glyph(for character: Character) -> UInt64 {
        if let ascii = character.asciiValue, (0x20...0x7E).contains(ascii) {
            return glyphs[Int(ascii) - 0x20]
        }
        return glyphs[Int(UInt8(ascii: "?")) - 0x20]
    }

    /// Glyphs for 0x20 (space) through 0x7E (`~`), in order.
    private static let glyphs: [UInt64] = [
        0x000000000, // ' '
        0x108421004, // !
        0x294A00000, // "
        0x295F57D4A, // #
        0x11F4717C4, // $
        0x632222263, // %
        0x32544564D, // &
        0x108800000, // '
        0x088842082, // (
        0x208210888, // )
        0x009575480, // *
        0x0084F9080, // +
        0x000003088, // ,
        0x0000F8000, // -
        0x00000018C, // .
        0x002222200, // /
        0x3A33AE62E, // 0
        0x11842108E, // 1
        0x3A211111F, // 2
        0x7C441062E, // 3
        0x08CA97C42, // 4
        0x7E1E0862E, // 5
        0x1910F462E, // 6
        0x7C2222108, // 7
        0x3A317462E, // 8
        0x3A317844C, // 9
        0x018C03180, // :
        0x018C03088, // ;
        0x088882082, // <
        0x001F07C00, // =
        0x208208888, // >
        0x3A2111004, // ?
        0x3A216D6AE, // @
        0x3A31FC631, // A
        0x7A31F463E, // B
        0x3A308422E, // C
        0x72518C65C, // D
        0x7E10F421F, // E
        0x7E10F4210, // F
        0x3A30BC62F, // G
        0x4631FC631, // H
        0x38842108E, // I
        0x1C4210A4C, // J
        0x4654C5251, // K
        0x42108421F, // L
        0x4775AC631, // M
        0x4639ACE31, // N
        0x3A318C62E, // O
        0x7A31F4210, // P
        0x3A318D64D, // Q
        0x7A31F5251, // R
        0x3E107043E, // S
        0x7C8421084, // T
        0x46318C62E, // U
        0x46318C544, // V
        0x4631AD6AA, // W
        0x462A22A31, // X
        0x463151084, // Y
        0x7C222221F, // Z
        0x39084210E, // [
        0x020820820, // \
        0x38421084E, // ]
        0x115100000, // ^
        0x00000001F, // _
        0x208200000, // `
        0x000E0BE2F, // a
        0x4216CC63E, // b
        0x000E8422E, // c
        0x042D9C62F, // d
        0x000E8FE0E, // e
        0x1928E2108, // f
        0x01F18BC2E, // g
        0x4216CC631, // h
        0x100C2108E, // i
        0x080610A4C, // j
        0x4212A6292, // k
        0x30842108E, // l
        0x001AAD631, // m
        0x0016CC631, // n
        0x000E8C62E, // o
        0x001E8FA10, // p
        0x000D9BC21, // q
        0x0016CC210, // r
        0x000E8383E, // s
        0x211C42126, // t
        0x00118C66D, // u
        0x00118C544, // v
        0x00118D6AA, // w
        0x001151151, // x
        0x00118BC2E, // y
        0x001F1111F, // z
        0x088441082, // {
        0x108421084, // |
        0x208411088, // }
        0x0008A8800, // ~
    ]
}
