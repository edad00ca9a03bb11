package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.analysis.Baselines;
import dev.threadbench.loadtest.analysis.Gate;
import dev.threadbench.loadtest.model.BaselineFixtures;
import dev.threadbench.loadtest.model.Results;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * --junit's XML read as CI tools read it: the JDK's XML parser, then the structure Jenkins' junit step, GitLab's
 * junit report and the Surefire report plugin take from it (testsuite name, tests, failures, errors, skipped;
 * testcase classname and name; failure message).
 */
class JunitReportTest {

    @Test
    void eachGateAndCellIsATestCaseAndABreachIsAFailureWithItsLine() throws Exception {
        Results baseline = BaselineFixtures.run(4, 9900, 2010, 30, 0.005, 1);
        Results slower = BaselineFixtures.run(4, 9900 * 0.95, 2010 * 1.03, 30, 0.005, 2);
        Results judged = slower.withBaseline(Baselines.of(baseline, slower, "base"));
        Gate.Check check = Gate.check(Gate.parse(List.of("req/s<-2%", "p99>2100ms", "p99>2000ms")), judged);

        Document xml = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(
                        JunitReport.render(check.cases(), "2026-12-07T04:00:00").getBytes(StandardCharsets.UTF_8)));

        Element root = xml.getDocumentElement();
        assertEquals("testsuites", root.getTagName());
        NodeList suites = root.getElementsByTagName("testsuite");
        assertEquals(1, suites.getLength());
        Element suite = (Element) suites.item(0);
        NodeList cases = suite.getElementsByTagName("testcase");
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < cases.getLength(); i++) {
            Element testCase = (Element) cases.item(i);
            assertTrue(testCase.getAttribute("classname").startsWith("fail-if "), testCase.getAttribute("classname"));
            assertTrue(!testCase.getAttribute("name").isEmpty());
            NodeList failure = testCase.getElementsByTagName("failure");
            if (failure.getLength() == 1) {
                failures.add(((Element) failure.item(0)).getAttribute("message"));
            }
        }
        assertEquals("threadbench.gates", suite.getAttribute("name"));
        assertEquals(String.valueOf(check.cases().size()), suite.getAttribute("tests"));
        assertEquals(check.cases().size(), cases.getLength());
        assertEquals(3, cases.getLength(), "one cell, three gates");
        assertEquals("0", suite.getAttribute("errors"));
        assertEquals(String.valueOf(failures.size()), suite.getAttribute("failures"));
        assertEquals(check.breaches(), failures, "the breach lines, as the console prints them");
        assertEquals(2, failures.size(), "req/s 5 % down and p99 past 2000 ms; p99 under 2100 ms held");
        assertTrue(failures.getFirst().startsWith("req/s<-2%: C=2000 undertow/blocking: req/s 9,4"), failures.get(0));
    }

    @Test
    void markupInALineIsEscaped() {
        assertEquals(
                "req/s&lt;-2%: &quot;a&quot; &amp; &apos;b&apos; &gt;", JunitReport.escape("req/s<-2%: \"a\" & 'b' >"));
    }
}
