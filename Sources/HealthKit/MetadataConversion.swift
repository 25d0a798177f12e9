import HealthModel

/// HealthKit-style `[String: Any]` metadata to wire values, keeping the first failure for save
/// (objects and workout events convert their metadata when made, and fail only when saved).
enum MetadataConversion {
    static func convert(_ metadata: [String: Any]?) -> ([String: MetadataValue]?, HKError?) {
        guard let metadata else { return (nil, nil) }
        var values: [String: MetadataValue] = [:]
        var firstError: HKError?
        // Sorted so the error reported for several bad entries does not depend on hash order.
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            do {
                values[key] = try MetadataValue(any: value, key: key)
            } catch {
                firstError = firstError ?? error
            }
        }
        return (values, firstError)
    }
}
