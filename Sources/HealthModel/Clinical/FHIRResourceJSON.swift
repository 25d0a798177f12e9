public import Foundation

/// The two fields of a FHIR resource that decide whether it is stored (`resourceType`, `id`),
/// read from its JSON: bounded (`FHIRResourceRules.maxResourceBytes`, checked before parsing;
/// Foundation's parser bounds nesting depth), UTF-8, a top-level object. Parsing only; what the
/// fields must be is `FHIRResourceRules`' decision.
public struct FHIRResourceJSON: Sendable {
    public let resourceType: String?
    public let id: String?
    /// A name for display, from the fields FHIR resources commonly name themselves by
    /// (`code.text`, the first coding's `display`, …); nil when none is set.
    public let displayName: String?

    public enum Problem: Error, CustomStringConvertible {
        case tooLarge(Int)
        case notUTF8
        case notJSON
        case notAnObject

        public var description: String {
            switch self {
            case let .tooLarge(bytes): "is \(bytes) bytes; at most \(FHIRResourceRules.maxResourceBytes) are stored"
            case .notUTF8: "is not UTF-8 text"
            case .notJSON: "is not valid JSON"
            case .notAnObject: "is not a JSON object"
            }
        }
    }

    public init(_ data: Data) throws(Problem) {
        guard data.count <= FHIRResourceRules.maxResourceBytes else { throw .tooLarge(data.count) }
        guard String(data: data, encoding: .utf8) != nil else { throw .notUTF8 }
        let parsed: Any
        do {
            // Fragments parse, so a bare string or number is reported as "not an object".
            parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw .notJSON
        }
        guard let object = parsed as? [String: Any] else { throw .notAnObject }
        resourceType = object["resourceType"] as? String
        id = object["id"] as? String
        displayName = Self.name(in: object)
    }

    /// The first of the usual naming fields that holds text: a CodeableConcept's `text`, else
    /// its first coding's `display` (Observation/Condition/Procedure `code`, AllergyIntolerance
    /// `code`/`substance`, Immunization `vaccineCode`, medications' `medicationCodeableConcept`,
    /// DocumentReference/Coverage `type`), else `description`.
    private static func name(in object: [String: Any]) -> String? {
        for key in ["code", "substance", "vaccineCode", "medicationCodeableConcept", "type"] {
            guard let concept = object[key] as? [String: Any] else { continue }
            if let text = concept["text"] as? String, !text.isEmpty { return text }
            if let codings = concept["coding"] as? [Any], let first = codings.first as? [String: Any],
               let display = first["display"] as? String, !display.isEmpty { return display }
        }
        return (object["description"] as? String).flatMap { $0.isEmpty ? nil : $0 }
    }
}
