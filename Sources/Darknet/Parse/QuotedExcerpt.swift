/// A line or value of a text file as an error quotes it: `'text'`, or its first 60 characters
/// and how many there are when it has more than 80 (a whole web page can be one line).
package func quotedExcerpt(_ text: String) -> String {
    text.count <= 80 ? "'\(text)'" : "'\(text.prefix(60))...' (\(text.count) characters)"
}
