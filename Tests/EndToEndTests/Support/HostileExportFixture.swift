/// A small Apple Health export written for the export round trip: every element kind the import
/// stores (quantities in non-canonical units, a category by name, a blood-pressure correlation,
/// a workout with events, totals and an inline route) under sources, devices and metadata
/// holding text that must survive XML escaping both ways — quotes, `<script>`, ampersands, a
/// line break, non-ASCII.
enum HostileExportFixture {
    static let hostileSource = #"Watch "<script>alert(1)</script>" & Co — ünïcode"#
    static let xml = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-05-02 09:00:00 +0200"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-03-04" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; &amp; Co — ünïcode" sourceVersion="10.1" device="&lt;&lt;HKDevice: 0x283a>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.1&gt;" unit="count/min" creationDate="2024-05-01 08:00:10 +0200" startDate="2024-05-01 08:00:00 +0200" endDate="2024-05-01 08:00:00 +0200" value="73">
          <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>
          <MetadataEntry key="custom note" value="line one&#10;line two, &quot;quoted&quot; &lt;b&gt; &amp;amp;"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; &amp; Co — ünïcode" sourceVersion="10.1" unit="count/min" startDate="2024-05-01 08:05:00 +0200" endDate="2024-05-01 08:05:00 +0200" value="141.5"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" sourceVersion="17.4" unit="count" startDate="2024-05-01 09:00:00 +0200" endDate="2024-05-01 09:10:00 +0200" value="1234"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale, Inc." unit="lb" startDate="2024-05-01 07:00:00 +0200" endDate="2024-05-01 07:00:00 +0200" value="150.3">
          <MetadataEntry key="HKWasUserEntered" value="1"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierBodyTemperature" sourceName="Thermometer" unit="degF" startDate="2024-05-01 07:01:00 +0200" endDate="2024-05-01 07:01:00 +0200" value="98.6"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="iPhone" sourceVersion="17.4" startDate="2024-04-30 23:00:00 +0200" endDate="2024-05-01 06:30:00 +0200" value="HKCategoryValueSleepAnalysisAsleepCore"/>
         <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" sourceVersion="2.0" startDate="2024-05-01 07:05:00 +0200" endDate="2024-05-01 07:05:00 +0200">
          <MetadataEntry key="HKWasUserEntered" value="0"/>
          <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Omron" sourceVersion="2.0" unit="mmHg" startDate="2024-05-01 07:05:00 +0200" endDate="2024-05-01 07:05:00 +0200" value="121"/>
          <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Omron" sourceVersion="2.0" unit="mmHg" startDate="2024-05-01 07:05:00 +0200" endDate="2024-05-01 07:05:00 +0200" value="79"/>
         </Correlation>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="29.5" durationUnit="min" totalDistance="5.2" totalDistanceUnit="km" totalEnergyBurned="350" totalEnergyBurnedUnit="kcal" sourceName="Watch &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; &amp; Co — ünïcode" sourceVersion="10.1" startDate="2024-05-01 06:00:00 +0200" endDate="2024-05-01 06:30:00 +0200">
          <MetadataEntry key="HKIndoorWorkout" value="0"/>
          <WorkoutEvent type="HKWorkoutEventTypeLap" date="2024-05-01 06:00:00 +0200" duration="5.25" durationUnit="min"/>
          <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-05-01 06:10:00 +0200"/>
          <WorkoutEvent type="HKWorkoutEventTypeResume" date="2024-05-01 06:10:30 +0200"/>
          <WorkoutRoute sourceName="Watch" startDate="2024-05-01 06:00:05 +0200" endDate="2024-05-01 06:00:15 +0200">
           <Location date="2024-05-01 06:00:05 +0200" latitude="52.5163" longitude="13.3777" altitude="34.5" horizontalAccuracy="4.2" verticalAccuracy="3" course="90.5" speed="2.75"/>
           <Location date="2024-05-01 06:00:10 +0200" latitude="52.5165" longitude="13.3781" altitude="35" horizontalAccuracy="4" verticalAccuracy="3.5" course="91" speed="2.8"/>
           <Location date="2024-05-01 06:00:15 +0200" latitude="52.5167" longitude="13.3785" horizontalAccuracy="5"/>
          </WorkoutRoute>
         </Workout>
        </HealthData>
        """#
}
