import AppleHealthExport
import Foundation
import HealthModel

/// `healthctl export --format apple`: export.zip as the Health app shares it (see
/// `ExportArchiveWriter`, `ExportXMLWriter`, `GPXRouteWriter`), which `healthctl import` and the
/// tools that read Apple's exports read back.
final class AppleExportSink: ExportSink {
    let wantsRoutes = true
    private var output: StagedOutput
    private let archive: ExportArchiveWriter
    private let writer: ExportXMLWriter
    /// ECG files written per day, for Apple's `_1`, `_2` … names.
    private var electrocardiogramsPerDay: [String: Int] = [:]

    init(destination: URL, writer: ExportXMLWriter, characteristics: [CharacteristicRecord], exportDate: Date) throws(HealthCtlError) {
        output = try StagedOutput(destination: destination, kind: .file)
        do {
            // Beside the destination, under the staged file's hidden name: a kill leaves the
            // plaintext files there, where the user asked for the export, not in /tmp.
            archive = try ExportArchiveWriter(stagingFolder: URL(fileURLWithPath: output.staged.path + "-files"))
        } catch {
            throw .exportFailed(path: destination.path, reason: error.description)
        }
        self.writer = writer
        try write(writer.prologue(exportDate: exportDate, locale: Locale.current.identifier, characteristics: characteristics))
    }

    func add(_ sample: SampleRecord, routes: [ExportedRoute]) throws(HealthCtlError) {
        if case let .document(document) = sample.value {
            // A file of its own, as the bytes were saved, and the `CDADocument` element naming it.
            let path: String
            do {
                path = try archive.addDocument(uuid: sample.uuid, xml: document.data)
            } catch {
                throw .exportFailed(path: output.destination.path, reason: error.description)
            }
            let source = ExportSourceName.of(sample.source)
            return try write(writer.document(sample, sourceName: source.name, sourceVersion: source.version, path: path))
        }
        var files: [ExportRouteFile] = []
        for route in routes {
            let name = GPXRouteWriter.fileName(start: route.startDate, uuid: route.uuid, timeZone: writer.timeZone)
            do {
                let path = try archive.addRoute(fileName: name, gpx: GPXRouteWriter.gpx(route.locations, name: name))
                files.append(ExportRouteFile(path: path, startDate: route.startDate, endDate: route.endDate))
            } catch {
                throw .exportFailed(path: output.destination.path, reason: error.description)
            }
        }
        let source = ExportSourceName.of(sample.source)
        if case .clinicalRecord = sample.value { return try addClinicalRecord(sample, sourceName: source.name) }
        guard let element = writer.element(sample, sourceName: source.name, sourceVersion: source.version, routes: files) else { return }
        try write(element)
    }

    /// Writes the record's FHIR JSON as given to `clinical-records/` (a second record with the
    /// same resource type and id, from another institution, gets `-2`, `-3` … before `.json`)
    /// and its `<ClinicalRecord>` naming that file.
    private func addClinicalRecord(_ sample: SampleRecord, sourceName: String) throws(HealthCtlError) {
        guard var (element, data) = ExportConversion.clinicalRecordElement(sample, sourceName: sourceName) else { return }
        let base = String(element.resourceFilePath.split(separator: "/").last ?? "resource.json").dropLast(".json".count)
        do {
            var attempt = 1
            var name = base + ".json"
            while try !archive.addClinicalResource(fileName: String(name), data: data) {
                attempt += 1
                name = base + "-\(attempt).json"
            }
            element.resourceFilePath = "/\(AppleHealthExportFile.clinicalRecordsFolder)/\(name)"
        } catch {
            throw .exportFailed(path: output.destination.path, reason: error.description)
        }
        try write(writer.clinicalRecord(element))
    }

    var wantsElectrocardiograms: Bool { true }

    func add(_ sample: SampleRecord, heartbeats: [Heartbeat]) throws(HealthCtlError) {
        guard !heartbeats.isEmpty else { return try add(sample, routes: []) }
        let source = ExportSourceName.of(sample.source)
        try write(writer.record(sample, sourceName: source.name, sourceVersion: source.version, beats: heartbeats))
    }

    func addElectrocardiogram(_ sample: SampleRecord, voltages: [Double]) throws(HealthCtlError) {
        let day = ExportConversion.electrocardiogramDay(sample, timeZone: writer.timeZone)
        let sameDay = electrocardiogramsPerDay[day, default: 0]
        guard let (name, ecg) = ExportConversion.electrocardiogramFile(sample, voltages: voltages, timeZone: writer.timeZone,
                                                                       sameDay: sameDay) else { return }
        electrocardiogramsPerDay[day] = sameDay + 1
        do {
            try archive.addElectrocardiogram(fileName: name, csv: ElectrocardiogramCSV.write(ecg, timeZone: writer.timeZone))
        } catch {
            throw .exportFailed(path: output.destination.path, reason: error.description)
        }
    }

    func finish() throws(HealthCtlError) {
        try write(ExportXMLWriter.epilogue)
        do {
            try archive.finish(writingTo: output.staged)
        } catch {
            output.discard()
            throw .exportFailed(path: output.destination.path, reason: error.description)
        }
        try output.commit()
    }

    func discard() { output.discard() }

    private func write(_ text: String) throws(HealthCtlError) {
        do {
            try archive.write(text)
        } catch {
            throw .exportFailed(path: output.destination.path, reason: error.description)
        }
    }
}
