/// `count` and a noun for a description, singular for a count of 1 (`1 thread`, `2 threads`,
/// `1 class`, `80 classes`); `plural` defaults to the singular with an `s`.
package func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
