import Foundation
import HealthModel

/// The fields of a SMART Health Card's payload (spec.smarthealth.cards, "Health Cards are
/// encoded as Compact Serialization JSON Web Signatures"): `iss`, `nbf`, optional `exp`, and
/// `vc` with its `type` and `credentialSubject.fhirBundle`, whose Patient gives the subject and
/// whose Immunization and Observation entries give the item names and the relevant date.
struct CardPayload {
    let issuer: String
    let issued: Date
    let expiration: Date?
    let types: [String]
    let subjectName: String
    let subjectBirthDate: String
    let itemNames: [String]
    let relevant: Date

    init(_ bytes: [UInt8], limits: SmartHealthCardLimits) throws(SmartHealthCardError) {
        guard !bytes.contains(0), String(validating: bytes, as: UTF8.self) != nil else {
            throw .malformedPayload("it is not UTF-8 text without NUL")
        }
        let object = try BoundedJSON.object(bytes, maxDepth: limits.maxJSONDepth, what: "the payload")
        guard let issuer = object["iss"] as? String, !issuer.isEmpty, issuer.utf8.count <= limits.maxTextBytes else {
            throw .malformedPayload("no iss (the issuer's URL)")
        }
        guard let nbf = Self.seconds(object["nbf"]) else { throw .malformedPayload("no nbf (the issue date)") }
        guard let vc = object["vc"] as? [String: Any], let types = vc["type"] as? [String], !types.isEmpty,
              types.count <= VerifiableRecordQuerySpec.maxRecordTypes,
              types.allSatisfy({ !$0.isEmpty && $0.utf8.count <= VerifiableRecordQuerySpec.maxTypeBytes }) else {
            throw .malformedPayload("no vc.type (1 to \(VerifiableRecordQuerySpec.maxRecordTypes) type URIs)")
        }
        guard let subject = vc["credentialSubject"] as? [String: Any], let bundle = subject["fhirBundle"] as? [String: Any],
              let entries = bundle["entry"] as? [Any] else {
            throw .malformedPayload("no vc.credentialSubject.fhirBundle.entry")
        }
        guard entries.count <= limits.maxEntries else { throw .malformedPayload("more than \(limits.maxEntries) bundle entries") }
        self.issuer = issuer
        issued = Date(timeIntervalSince1970: nbf)
        expiration = Self.seconds(object["exp"]).map(Date.init(timeIntervalSince1970:))
        self.types = types
        var name = ""
        var birthDate = ""
        var items: [String] = []
        var newest: Date?
        for case let entry as [String: Any] in entries {
            guard let resource = entry["resource"] as? [String: Any] else { continue }
            switch resource["resourceType"] as? String {
            case "Patient":
                if name.isEmpty { name = Self.patientName(resource) }
                if birthDate.isEmpty, let date = resource["birthDate"] as? String, FHIRDate.isDate(date) { birthDate = date }
            case "Immunization":
                items.append(Self.codeName(resource["vaccineCode"]) ?? "Immunization")
                if let date = (resource["occurrenceDateTime"] as? String).flatMap(FHIRDate.parse) { newest = max(newest ?? date, date) }
            case "Observation":
                items.append(Self.codeName(resource["code"]) ?? "Observation")
                if let date = (resource["effectiveDateTime"] as? String).flatMap(FHIRDate.parse) { newest = max(newest ?? date, date) }
            default:
                continue
            }
        }
        subjectName = Self.clip(name, limits.maxTextBytes)
        subjectBirthDate = birthDate
        itemNames = items.prefix(limits.maxEntries).map { Self.clip($0, limits.maxTextBytes) }
        guard itemNames.reduce(0, { $0 + $1.utf8.count }) <= limits.maxItemNameBytes else {
            throw .itemNamesTooLarge(limit: limits.maxItemNameBytes)
        }
        relevant = newest ?? issued
    }

    /// At most `bytes` UTF-8 bytes, cut between scalars.
    private static func clip(_ text: String, _ bytes: Int) -> String {
        var kept = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            used += String(scalar).utf8.count
            guard used <= bytes else { break }
            kept.append(scalar)
        }
        return String(kept)
    }

    private static func seconds(_ value: Any?) -> TimeInterval? {
        guard let number = value as? NSNumber else { return nil }
        let seconds = number.doubleValue
        // Within what a Date keeps to the microsecond (the store's unit) and a card could carry.
        guard seconds.isFinite, seconds >= 0, seconds < 32_503_680_000 else { return nil }
        return seconds
    }

    /// FHIR HumanName: `text`, else the given names and the family name.
    private static func patientName(_ patient: [String: Any]) -> String {
        guard let names = patient["name"] as? [Any], let first = names.first as? [String: Any] else { return "" }
        if let text = first["text"] as? String { return text }
        let given = (first["given"] as? [Any] ?? []).compactMap { $0 as? String }
        let family = first["family"] as? String
        return (given + [family].compactMap { $0 }).joined(separator: " ")
    }

    /// A CodeableConcept's name: its text, else its first coding's display, else that coding's code.
    private static func codeName(_ value: Any?) -> String? {
        guard let concept = value as? [String: Any] else { return nil }
        if let text = concept["text"] as? String, !text.isEmpty { return text }
        guard let coding = (concept["coding"] as? [Any])?.first as? [String: Any] else { return nil }
        if let display = coding["display"] as? String, !display.isEmpty { return display }
        return (coding["code"] as? String).map { code in
            (coding["system"] as? String).map { "\($0)|\(code)" } ?? code
        }
    }
}

/// FHIR `date` and `dateTime` (YYYY, YYYY-MM, YYYY-MM-DD, or a full time with offset): a date
/// alone is its first instant in UTC. A time is read by `ISO8601DateTime` (by hand: never ICU's
/// formatter, which a long fractional second crashes).
enum FHIRDate {
    static func isDate(_ text: String) -> Bool {
        // ASCII digits only: `\d` matches other scripts' digits, which `Int` does not read.
        let pattern = /^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$/
        return text.utf8.count <= 10 && text.wholeMatch(of: pattern) != nil
    }

    static func parse(_ text: String) -> Date? {
        guard isDate(text) else { return ISO8601DateTime.parse(text) }
        var parts = text.split(separator: "-").compactMap { Int($0) }
        while parts.count < 3 { parts.append(1) }
        guard (1...12).contains(parts[1]), (1...CivilDate.daysIn(month: parts[1], year: parts[0])).contains(parts[2]) else { return nil }
        let days = CivilDate.daysSinceEpoch(year: parts[0], month: parts[1], day: parts[2])
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400))
    }
}
