package dev.threadbench.loadtest;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The loadtest module's packages, top to bottom, and what each may use (docs/architecture.md draws it):
 * <pre>
 *   loadtest (Main, RunCommand)   the commands' entry points
 *   compare                       runs servers x strategies x concurrencies, sweeps, writes results.json
 *   report   | cluster            rendering (console, HTML, Markdown) | the agents and their engine
 *   analysis | engine             cells, verdicts, sweep pairs, baselines | engines behind one interface
 *   server   | host               the servers: launched, reached, their /stats | the machine's CPUs, listen queues
 *   runner   | profile            the embedded generator | async-profiler
 *   plan                          the YAML plan
 *   model                         results.json's records: what a run produced
 *   base                          leaf types: usage errors, build info, /proc, the console and exit codes
 * </pre>
 */
class ArchitectureTest {

    private static final String ROOT = "dev.threadbench.loadtest";

    static final ArchRule LAYERS = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("entry")
            .definedBy(ROOT)
            .layer("compare")
            .definedBy(ROOT + ".compare..")
            .layer("live")
            .definedBy(ROOT + ".live..")
            .layer("report")
            .definedBy(ROOT + ".report..")
            .layer("cluster")
            .definedBy(ROOT + ".cluster..")
            .layer("analysis")
            .definedBy(ROOT + ".analysis..")
            .layer("engine")
            .definedBy(ROOT + ".engine..")
            .layer("server")
            .definedBy(ROOT + ".server..")
            .layer("host")
            .definedBy(ROOT + ".host..")
            .layer("runner")
            .definedBy(ROOT + ".runner..")
            .layer("profile")
            .definedBy(ROOT + ".profile..")
            .layer("plan")
            .definedBy(ROOT + ".plan..")
            .layer("model")
            .definedBy(ROOT + ".model..")
            .layer("base")
            .definedBy(ROOT + ".base..")
            .whereLayer("compare")
            .mayOnlyAccessLayers(
                    "live",
                    "report",
                    "cluster",
                    "analysis",
                    "engine",
                    "server",
                    "host",
                    "runner",
                    "profile",
                    "plan",
                    "model",
                    "base")
            .whereLayer("server")
            .mayOnlyAccessLayers("model", "base")
            .whereLayer("host")
            .mayOnlyAccessLayers("model", "base")
            .whereLayer("live")
            .mayOnlyAccessLayers("report", "base")
            .whereLayer("report")
            .mayOnlyAccessLayers("analysis", "model", "base")
            .whereLayer("cluster")
            .mayOnlyAccessLayers("engine", "runner", "plan", "model", "base")
            .whereLayer("analysis")
            .mayOnlyAccessLayers("model", "base")
            .whereLayer("engine")
            .mayOnlyAccessLayers("runner", "plan", "model", "base")
            .whereLayer("runner")
            .mayOnlyAccessLayers("plan", "model", "base")
            .whereLayer("profile")
            .mayOnlyAccessLayers("model", "base")
            .whereLayer("plan")
            .mayOnlyAccessLayers("base")
            .whereLayer("model")
            .mayNotAccessAnyLayer()
            .whereLayer("base")
            .mayNotAccessAnyLayer();

    static final ArchRule NO_CYCLES =
            slices().matching(ROOT + ".(*)..").should().beFreeOfCycles();

    private static JavaClasses main() {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    void eachPackageUsesOnlyThoseBelowIt() {
        LAYERS.check(main());
    }

    @Test
    void noTwoPackagesDependOnEachOther() {
        NO_CYCLES.check(main());
    }

    @Test
    void aCycleBetweenTwoPackagesIsCaught() {
        JavaClasses cycle = new ClassFileImporter().importPackages(ROOT + ".architecture.cycle");
        assertTrue(
                slices().matching(ROOT + ".architecture.cycle.(*)..")
                        .should()
                        .beFreeOfCycles()
                        .evaluate(cycle)
                        .hasViolation(),
                "two test packages that use each other");
    }
}
