extension ImageHeader {
    /// A JPEG's: the size from the first SOFn marker before the scan data, and the orientation
    /// from the first APP1 segment, read as OpenCV does (TIFF data 6 bytes in, after
    /// `Exif\0\0`). Walks the marker segments from SOI up to the first SOS (or EOI, or damage).
    init(jpeg bytes: [UInt8]) {
        let n = bytes.count
        var i = 2  // past SOI
        var seenAPP1 = false
        while i + 1 < n {
            guard bytes[i] == 0xFF else { return }
            while i < n && bytes[i] == 0xFF { i += 1 }  // fill bytes
            guard i < n else { return }
            let marker = bytes[i]
            i += 1
            switch marker {
            case 0x01, 0xD0...0xD8:
                continue  // stand-alone markers
            case 0xD9, 0xDA:
                return  // EOI, SOS: the header is over
            default:
                break
            }
            guard i + 1 < n else { return }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2 else { return }
            let payloadStart = i + 2
            let payloadEnd = min(n, i + length)
            switch marker {
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                if width == nil, payloadStart + 5 <= payloadEnd {
                    height = Int(bytes[payloadStart + 1]) << 8 | Int(bytes[payloadStart + 2])
                    width = Int(bytes[payloadStart + 3]) << 8 | Int(bytes[payloadStart + 4])
                }
            case 0xE1 where !seenAPP1:
                seenAPP1 = true
                let tiffStart = payloadStart + 6
                if tiffStart < payloadEnd {
                    orientation = EXIFOrientation(tiff: bytes[tiffStart..<payloadEnd])
                }
            default:
                break
            }
            i += length
        }
    }
}
