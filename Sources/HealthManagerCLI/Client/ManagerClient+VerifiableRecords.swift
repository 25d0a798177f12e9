public import Foundation
public import HealthModel
public import HealthWire

/// The user's verifiable clinical records (SMART Health Cards).
extension ManagerClient {
    /// Sends the file's bytes (and the issuer's JWKS, if given) for healthd to parse and store.
    public func importVerifiableRecords(file: [UInt8], issuerKeys: [UInt8]) async throws(HealthCtlError) -> [VerifiableRecord] {
        let reply: VerifiableRecordList = try await unary(.importVerifiableRecords, VerifiableRecordImport(file: file, issuerKeys: issuerKeys),
                                                          action: "import verifiable clinical records")
        return reply.records
    }

    /// The records named, or every record when none is, without their JWS (summaries), read
    /// from the frames healthd streams.
    public func verifiableRecords(_ uuids: [UUID] = []) async throws(HealthCtlError) -> [VerifiableRecord] {
        var records: [VerifiableRecord] = []
        for try await frame in stream(.listVerifiableRecords, VerifiableRecordSelection(uuids), action: "list verifiable clinical records",
                                      as: VerifiableRecordList.self) {
            records += frame.records
        }
        return records
    }

    public func deleteVerifiableRecords(_ uuids: [UUID]) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.deleteVerifiableRecords, VerifiableRecordDeletion(uuids),
                                              action: "delete verifiable clinical records")
    }
}
