package dev.threadbench.loadtest.cluster.messages;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * What compare and its agents say to each other over the event bus; every type travels through {@link MessageCodec},
 * inside a {@link Sealed}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.SIMPLE_NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(Claim.class),
    @JsonSubTypes.Type(ClaimAnswer.class),
    @JsonSubTypes.Type(Release.class),
    @JsonSubTypes.Type(RunOrder.class),
    @JsonSubTypes.Type(RunAccepted.class),
    @JsonSubTypes.Type(Heartbeat.class),
    @JsonSubTypes.Type(StopRun.class),
    @JsonSubTypes.Type(AgentReport.class),
    @JsonSubTypes.Type(RunStatus.class),
    @JsonSubTypes.Type(ReportReceived.class),
    @JsonSubTypes.Type(Refused.class),
    @JsonSubTypes.Type(Sealed.class)
})
public sealed interface ClusterMessage
        permits Claim,
                ClaimAnswer,
                Release,
                RunOrder,
                RunAccepted,
                Heartbeat,
                StopRun,
                AgentReport,
                RunStatus,
                ReportReceived,
                Refused,
                Sealed {

    /** Where an agent takes its orders. */
    static String agentAddress(String nodeId) {
        return "threadbench.agent." + nodeId;
    }

    /** Where a compare takes its agents' reports. */
    static String compareAddress(String nodeId) {
        return "threadbench.compare." + nodeId;
    }
}
