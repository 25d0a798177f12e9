import AppleHealthExport
import Foundation
import HealthModel

/// The import's series: ECG files read after export.xml, and the heartbeat series an HRV
/// record's beat list holds. Both travel in ordinary batches (`add`), weighed by their points
/// so a batch stays inside one frame.
extension ImportPipeline {
    /// Reads each ECG file of the export, one at a time, into batches; a file that cannot be
    /// read or converted is refused alone (tallied with its reason) and the import goes on.
    func acceptElectrocardiograms(ship: (Batch) throws -> Void) throws {
        let type = HKElectrocardiogramTypeIdentifier
        for path in file.electrocardiogramPaths() {
            tallied.withLock { $0.countRead() }
            let imported: ImportedSample
            do {
                imported = try ExportConversion.sample(file.electrocardiogram(at: path))
            } catch let refusal as ImportRefusal {
                tallied.withLock { $0.refused(type, refusal.reason) }
                continue
            } catch {
                tallied.withLock { $0.refused(type, "\(error)") }
                continue
            }
            try add(imported, ship: ship)
        }
    }

    /// Adds the heartbeat series of an HRV record with beats, beside the HRV sample itself.
    func addHeartbeatSeries(of record: ExportRecord, hrv: SampleRecord, ship: (Batch) throws -> Void) throws {
        let series: ImportedSample?
        do throws(ImportRefusal) {
            series = try ExportConversion.heartbeatSeries(of: record, hrv: hrv)
        } catch {
            tallied.withLock { $0.refused(error.type, error.reason) }
            return
        }
        if let series { try add(series, ship: ship) }
    }

    /// How many series points a record carries (0 for other samples).
    static func seriesPoints(_ record: SampleRecord) -> Int {
        switch record.value {
        case let .heartbeatSeries(series): series.beats?.count ?? 0
        case let .electrocardiogram(ecg): ecg.voltages?.count ?? 0
        default: 0
        }
    }
}
