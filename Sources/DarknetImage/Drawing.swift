import Darknet

/// Drawing boxes and text on an image in place.
///
/// Coordinates are pixel columns/rows, inclusive, clipped to the image. On 3-channel images
/// the colour's red, green and blue go to channels 0, 1, 2; 1-channel images get its
/// luminance; channels beyond the third are left alone.
extension PlanarImage {
    /// Sets one pixel (no bounds check; callers clip).
    @inline(__always)
    private mutating func set(x: Int, y: Int, _ color: RGBColor) {
        let area = width * height
        let index = y * width + x
        if channels == 1 {
            pixels[index] = color.luminance
            return
        }
        pixels[index] = color.red
        if channels > 1 { pixels[area + index] = color.green }
        if channels > 2 { pixels[2 * area + index] = color.blue }
    }

    /// Fills the rectangle `left...right x top...bottom` (clipped) with `color`.
    public mutating func fillRectangle(left: Int, top: Int, right: Int, bottom: Int, color: RGBColor) {
        let x0 = max(0, min(left, right)), x1 = min(width - 1, max(left, right))
        let y0 = max(0, min(top, bottom)), y1 = min(height - 1, max(top, bottom))
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 { set(x: x, y: y, color) }
        }
    }

    /// Draws the outline of `left...right x top...bottom`, `thickness` pixels wide, growing
    /// inwards (as Darknet's `draw_box_width`). Corners are clamped into the image first, so
    /// a box partly outside still shows its visible edges on the border.
    public mutating func drawBox(left: Int, top: Int, right: Int, bottom: Int,
                                 color: RGBColor, thickness: Int = 1) {
        let w = width, h = height
        func clamp(_ v: Int, _ limit: Int) -> Int { min(max(v, 0), limit - 1) }
        let l = clamp(min(left, right), w), r = clamp(max(left, right), w)
        let t = clamp(min(top, bottom), h), b = clamp(max(top, bottom), h)
        for i in 0..<max(1, thickness) {
            let x0 = l + i, x1 = r - i, y0 = t + i, y1 = b - i
            guard x0 <= x1, y0 <= y1 else { break }
            for x in x0...x1 {
                set(x: x, y: y0, color)
                set(x: x, y: y1, color)
            }
            for y in y0...y1 {
                set(x: x0, y: y, color)
                set(x: x1, y: y, color)
            }
        }
    }

    /// Draws `text` with the built-in ``BitmapFont`` on a filled background of `color`,
    /// the background's top-left corner at (`x`, `y`). The text is black on light colours and
    /// white on dark ones. `scale` multiplies the 5x7 glyphs; anything outside the image is
    /// clipped. Characters outside printable ASCII draw as `?`.
    public mutating func drawLabel(_ text: String, x: Int, y: Int, color: RGBColor, scale: Int = 1) {
        let s = max(1, scale)
        let (textWidth, textHeight) = BitmapFont.size(of: text, scale: s)
        guard textWidth > 0 else { return }
        let padding = s
        fillRectangle(left: x, top: y, right: x + textWidth + 2 * padding - 1,
                      bottom: y + textHeight + 2 * padding - 1, color: color)
        let ink: RGBColor = color.luminance > 0.5 ? .black : .white
        var originX = x + padding
        let originY = y + padding
        for character in text {
            for gy in 0..<BitmapFont.glyphHeight {
                for gx in 0..<BitmapFont.glyphWidth where BitmapFont.isSet(character, x: gx, y: gy) {
                    for dy in 0..<s {
                        let py = originY + gy * s + dy
                        guard py >= 0, py < height else { continue }
                        for dx in 0..<s {
                            let px = originX + gx * s + dx
                            if px >= 0 && px < width { set(x: px, y: py, ink) }
                        }
                    }
                }
            }
            originX += BitmapFont.advance * s
        }
    }
}
