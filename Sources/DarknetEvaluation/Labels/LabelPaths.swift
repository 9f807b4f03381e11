/// Where the label file of an image is, as Darknet looks for it.
///
/// AlexeyAB's `replace_image_to_label` keeps the folder (a custom dataset has `img1.jpg` and
/// `img1.txt` side by side) except for COCO's and VOC's layouts, whose `images/train2014/`,
/// `images/val2014/`, `images/train2017/`, `images/val2017/` and `JPEGImages/` folders become
/// `labels/...`; the image's extension becomes `.txt`. The original Darknet (and the YOLO
/// datasets other tools export) swaps an `images` folder for `labels`. Both are tried, in that
/// order, and the first that exists is used.
public enum LabelPaths {
    /// The paths tried for `imagePath`'s labels, in order, without repeats.
    public static func candidates(forImage imagePath: String) -> [String] {
        var alexeyAB = imagePath
        for (folder, replacement) in [("/images/train2017/", "/labels/train2017/"), ("/images/val2017/", "/labels/val2017/"),
                                      ("/JPEGImages/", "/labels/"), ("/images/train2014/", "/labels/train2014/"),
                                      ("/images/val2014/", "/labels/val2014/")] {
            if let range = alexeyAB.range(of: folder) { alexeyAB.replaceSubrange(range, with: replacement) }
        }
        var result = [withTextExtension(alexeyAB)]
        var components = imagePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let images = components.dropLast().lastIndex(where: { $0 == "images" || $0 == "JPEGImages" }) {
            components[images] = "labels"
            let swapped = withTextExtension(components.joined(separator: "/"))
            if !result.contains(swapped) { result.append(swapped) }
        }
        return result
    }

    /// `photo.jpg` → `photo.txt` (the last extension replaced; added when there is none).
    static func withTextExtension(_ path: String) -> String {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        if let dot = path[nameStart...].lastIndex(of: "."), dot != nameStart {
            return String(path[..<dot]) + ".txt"
        }
        return path + ".txt"
    }
}
