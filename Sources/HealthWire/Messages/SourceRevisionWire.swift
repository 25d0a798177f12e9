import COpenHealthProto
import HealthModel

/// `SourceRevision` on the wire, both ways: the one place a `SourceRecord` is written or read,
/// so every answer that carries a source (sample, anchored, correlation, workout and series
/// queries, the change feed, the pending journal) carries the same fields. An unset value is an
/// empty (left out) string, as proto3 writes it.
enum SourceRevisionWire {
    static func build(_ source: SourceRecord, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__SourceRevision> {
        arena.message { (revision: inout Openhealth__V1__SourceRevision) in
            revision.bundle_identifier = arena.string(source.bundleIdentifier)
            revision.name = arena.string(source.name)
            revision.version = arena.string(source.version ?? "")
            revision.product_type = arena.string(source.productType ?? "")
            revision.operating_system_version = arena.string(source.operatingSystemVersion == .unrecorded
                                                             ? "" : source.operatingSystemVersion.description)
        }
    }

    /// Fails on a system version that is not "major[.minor[.patch]]": only the broker writes one.
    static func read(_ revision: Openhealth__V1__SourceRevision) throws(WireDecodeError) -> SourceRecord {
        let version = WireRead.string(revision.version)
        let productType = WireRead.string(revision.product_type)
        let systemText = WireRead.string(revision.operating_system_version)
        var system = SystemVersion.unrecorded
        if !systemText.isEmpty {
            guard let parsed = SystemVersion(parsing: systemText) else {
                throw .invalidField("source revision system version is not major.minor.patch")
            }
            system = parsed
        }
        return SourceRecord(bundleIdentifier: WireRead.string(revision.bundle_identifier), name: WireRead.string(revision.name),
                            version: version.isEmpty ? nil : version, productType: productType.isEmpty ? nil : productType,
                            operatingSystemVersion: system)
    }
}
