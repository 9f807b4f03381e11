import Darknet

/// Why an HTTP request's form could not be read: the `Content-Type`, the multipart body or a
/// field. Each names what was expected and, inside the body, the byte offset.
public enum FormError: DarknetError, Equatable, Sendable {
    /// The request has no `Content-Type`, or one that is not `multipart/form-data`.
    case notMultipart(contentType: String?)
    /// The `Content-Type` header itself is malformed (a parameter without `=`, an unclosed
    /// quote, no `boundary`).
    case malformedContentType(String, reason: String)
    /// The body does not follow the multipart syntax at `offset`.
    case malformedBody(offset: Int, expected: String)
    /// The form has no file field called `field`; `fields` are the names it has.
    case missingField(String, fields: [String])
    /// The field's value is not what the API takes.
    case invalidField(String, value: String, expected: String)
    /// The form has more parts, or a part longer headers, than a request may carry.
    case tooManyParts(limit: Int)

    public var description: String {
        switch self {
        case .notMultipart(nil):
            "the request has no Content-Type; expected multipart/form-data with an 'image' file field"
        case .notMultipart(let contentType?):
            "Content-Type '\(contentType)': expected multipart/form-data with an 'image' file field"
        case .malformedContentType(let contentType, let reason):
            "Content-Type '\(contentType)': \(reason)"
        case .malformedBody(let offset, let expected):
            "multipart body, byte offset \(offset): expected \(expected)"
        case .missingField(let name, let fields):
            "the form has no '\(name)' file field" + (fields.isEmpty ? " (it has no fields)" : " (its fields: \(fields.joined(separator: ", ")))")
        case .invalidField(let name, let value, let expected):
            "form field '\(name)': '\(value)' is not \(expected)"
        case .tooManyParts(let limit):
            "the form has more than \(limit) parts"
        }
    }
}
