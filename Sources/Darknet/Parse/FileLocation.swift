/// Where in a text file an error is: printed `file:line: 'key': message`, as compilers and
/// Darknet's own messages name a place (the line and the key only when known).
struct FileLocation {
    let file: String
    let line: Int?
    let key: String?

    func describe(_ message: String) -> String {
        let place = line.map { "\(file):\($0)" } ?? file
        let subject = key.map { "'\($0)': " } ?? ""
        return "\(place): \(subject)\(message)"
    }
}
