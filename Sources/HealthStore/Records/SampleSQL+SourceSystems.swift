import GRDB
import HealthModel

extension SampleSQL {
    /// The part of a source-revision match about the product type and system version the row
    /// was saved on (v31), nil when the match takes any of both. Correlated to the row by its
    /// `system_id` key, with bound values only. A row that records neither (stored before v31)
    /// has no `source_systems` row: it matches only a revision asking for no product type ('')
    /// and no system version (0.0.0), which is what it reports.
    static func sourceSystem(_ revision: SourceRevisionMatch) -> (sql: String, arguments: StatementArguments)? {
        var parts: [String] = []
        var arguments = StatementArguments()
        if let productType = revision.productType {
            parts.append("ss.product_type = ?")
            arguments += [productType]
        }
        if let system = revision.operatingSystemVersion {
            parts.append("ss.os_version = ?")
            arguments += [system.description]
        }
        guard !parts.isEmpty else { return nil }
        let stored = "EXISTS (SELECT 1 FROM source_systems ss WHERE ss.id = o.system_id AND \(parts.joined(separator: " AND ")))"
        let asksForNothingRecorded = (revision.productType ?? "").isEmpty
            && (revision.operatingSystemVersion ?? .unrecorded) == .unrecorded
        return (asksForNothingRecorded ? "(o.system_id IS NULL OR \(stored))" : stored, arguments)
    }
}
