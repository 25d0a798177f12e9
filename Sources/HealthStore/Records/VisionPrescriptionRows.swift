import Foundation
import GRDB
import HealthModel

/// A vision prescription's side rows (`vision_prescriptions`, `vision_lenses`). Reads here are
/// keyed by an object id the caller already found visible (`SampleRowDecoder`), so no read here
/// decides visibility.
enum VisionPrescriptionRows {
    /// `HKVisionEye` raw values, the `eye` column.
    private static let left = 1, right = 2

    /// Stores a validated prescription (row id `objectID`); other values are not these tables'.
    static func insert(_ db: Database, objectID: Int64, _ value: SampleRecord.Value) throws {
        guard case let .visionPrescription(prescription) = value else { return }
        try db.execute(sql: "INSERT INTO vision_prescriptions (object_id, kind, has_lenses, expiration_us, brand) VALUES (?, ?, ?, ?, ?)",
                       arguments: [objectID, prescription.kind, prescription.hasLenses,
                                   prescription.expirationDate?.microsecondsSince1970, prescription.brand])
        let lens = try db.cachedStatement(sql: """
            INSERT INTO vision_lenses (object_id, eye, sphere, cylinder, axis, add_power, vertex_distance, far_pd, near_pd,
                                       prism_amount, prism_angle, prism_eye, base_curve, diameter)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (eye, spec) in [(right, prescription.rightEye), (left, prescription.leftEye)] {
            guard let spec else { continue }
            try lens.execute(arguments: [objectID, eye, spec.sphere, spec.cylinder, spec.axis, spec.addPower, spec.vertexDistance,
                                         spec.farPupillaryDistance, spec.nearPupillaryDistance, spec.prism?.amount,
                                         spec.prism?.angle, spec.prism?.eye, spec.baseCurve, spec.diameter])
        }
    }

    static func holdsValue(of typeIdentifier: String) -> Bool {
        typeIdentifier == HKVisionPrescriptionTypeIdentifier
    }

    /// A fetched prescription's value; nil for other types.
    static func value(objectID: Int64, typeIdentifier: String, _ db: Database) throws -> SampleRecord.Value? {
        guard holdsValue(of: typeIdentifier) else { return nil }
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT kind, has_lenses, expiration_us, brand FROM vision_prescriptions WHERE object_id = ?
            """), arguments: [objectID]) else {
            throw StoreIntegrityError.missingVisionPrescriptionRow
        }
        let expiration: Int64? = row["expiration_us"]
        var value = VisionPrescriptionValue(kind: row["kind"], hasLenses: row["has_lenses"],
                                            expirationDate: expiration.map(Date.init(microsecondsSince1970:)), brand: row["brand"])
        let lenses = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM vision_lenses WHERE object_id = ?"), arguments: [objectID])
        for lens in lenses {
            let spec = try specification(lens)
            switch lens["eye"] as Int {
            case right: value.rightEye = spec
            case left: value.leftEye = spec
            default: throw StoredValueError(table: "vision_lenses")
            }
        }
        return .visionPrescription(value)
    }

    private static func specification(_ row: Row) throws -> LensSpecificationValue {
        guard let sphere = row["sphere"] as Double? else { throw StoredValueError(table: "vision_lenses") }
        let prismAmount: Double? = row["prism_amount"], prismAngle: Double? = row["prism_angle"], prismEye: Int? = row["prism_eye"]
        var prism: VisionPrismValue?
        if let prismAmount, let prismAngle, let prismEye {
            prism = VisionPrismValue(amount: prismAmount, angle: prismAngle, eye: prismEye)
        }
        return LensSpecificationValue(sphere: sphere, cylinder: row["cylinder"], axis: row["axis"], addPower: row["add_power"],
                                      vertexDistance: row["vertex_distance"], prism: prism,
                                      farPupillaryDistance: row["far_pd"], nearPupillaryDistance: row["near_pd"],
                                      baseCurve: row["base_curve"], diameter: row["diameter"])
    }
}
