package dev.threadbench.loadtest;

import dev.threadbench.common.ServerOptions;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * docs/reference/cli.md, rendered from the commands' picocli model: {@code loadtest} and every subcommand below
 * it, then both servers' options (each with its own defaults), each with its synopsis, description, positional
 * parameters and options (names, label, default, description; hidden ones left out). {@link CliReferenceTest}
 * compares it with the committed file; {@code scripts/cli-reference} writes it again.
 */
final class CliReference {

    static final Path FILE = Path.of("docs", "reference", "cli.md");

    /** The servers whose options follow loadtest's commands: their main classes, each with its DEFAULTS. */
    private static final List<String> SERVERS =
            List.of("dev.threadbench.undertow.UndertowServer", "dev.threadbench.vertx.VertxServer");

    /** Wide enough that picocli wraps no synopsis differently from one terminal to the next. */
    private static final int WIDTH = 100;

    private static final String INTRODUCTION = """
            # Command-line reference

            Generated from the commands' own picocli model by `CliReference` (loadtest's tests), so it says
            what `--help` says; `CliReferenceTest` fails when it and the code differ. Do not edit it by hand:
            after changing an option, run `scripts/cli-reference`. The default column is the one the model
            holds; where a default depends on other options, the description says so.

            The load generator: `java -jar loadtest/target/loadtest.jar COMMAND` (`scripts/compare` runs `compare`
            with the jars built). The servers: `java -jar undertow-server/target/undertow-server.jar` and
            `java -jar vertx-server/target/vertx-server.jar`.

            """;

    private CliReference() {}

    static String render() {
        StringBuilder md = new StringBuilder();
        md.append(INTRODUCTION);
        List<CommandSpec> commands = new ArrayList<>();
        PrintStream none = new PrintStream(PrintStream.nullOutputStream());
        collect(new CommandLine(new Main(none, none)).getCommandSpec(), commands);
        for (String server : SERVERS) {
            commands.add(ServerOptions.spec(defaults(server)));
        }
        md.append("Commands:\n\n");
        for (CommandSpec command : commands) {
            md.append("- [`")
                    .append(command.qualifiedName())
                    .append("`](#")
                    .append(anchor(command))
                    .append(")\n");
        }
        for (CommandSpec command : commands) {
            md.append('\n');
            section(command, md);
        }
        return md.toString();
    }

    /** {@code spec} and its subcommands, depth first, each once (an alias names the same spec again). */
    private static void collect(CommandSpec spec, List<CommandSpec> into) {
        into.add(spec);
        spec.subcommands().values().stream()
                .map(CommandLine::getCommandSpec)
                .distinct()
                .forEach(sub -> collect(sub, into));
    }

    private static void section(CommandSpec command, StringBuilder md) {
        command.usageMessage().autoWidth(false).width(WIDTH);
        md.append("## ").append(command.qualifiedName()).append("\n\n");
        String description = text(command.usageMessage().description());
        if (!description.isEmpty()) {
            md.append(description).append("\n\n");
        }
        CommandLine.Help help =
                new CommandLine.Help(command, CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        md.append("```\n").append(help.synopsis(0).stripTrailing()).append("\n```\n");
        List<PositionalParamSpec> parameters =
                command.positionalParameters().stream().filter(p -> !p.hidden()).toList();
        if (!parameters.isEmpty()) {
            md.append("\n| parameter | description |\n| --- | --- |\n");
            for (PositionalParamSpec parameter : parameters) {
                md.append("| `")
                        .append(parameter.paramLabel().replace("|", "\\|"))
                        .append("` | ")
                        .append(cell(text(parameter.description())))
                        .append(" |\n");
            }
        }
        List<OptionSpec> options =
                command.options().stream().filter(o -> !o.hidden()).toList();
        if (!options.isEmpty()) {
            md.append("\n| option | default | description |\n| --- | --- | --- |\n");
            for (OptionSpec option : options) {
                md.append("| `")
                        .append((String.join(", ", option.names()) + label(option)).replace("|", "\\|"))
                        .append("` | ")
                        .append(defaultValue(option))
                        .append(" | ")
                        .append(cell(text(option.description())))
                        .append(" |\n");
            }
        }
        List<String> subcommands = command.subcommands().values().stream()
                .map(CommandLine::getCommandSpec)
                .distinct()
                .map(sub -> "[`" + sub.name() + "`](#" + anchor(sub) + ")")
                .toList();
        if (!subcommands.isEmpty()) {
            md.append("\nCommands: ").append(String.join(", ", subcommands)).append(".\n");
        }
    }

    /** An option's value label, " DIR" say; none for a flag. */
    private static String label(OptionSpec option) {
        return option.arity().max() == 0 ? "" : " " + option.paramLabel();
    }

    /** The default picocli shows (the default provider's, the annotation's, else the field's); none for a flag. */
    private static String defaultValue(OptionSpec option) {
        if (option.arity().max() == 0 || option.usageHelp() || option.versionHelp()) {
            return "";
        }
        Object value = option.command().defaultValueProvider() != null
                ? option.defaultValueString()
                : option.defaultValue() != null ? option.defaultValue() : option.initialValue();
        if (value == null
                || (value instanceof Collection<?> c && c.isEmpty())
                || (value.getClass().isArray() && java.lang.reflect.Array.getLength(value) == 0)) {
            return "";
        }
        String shown = value instanceof Object[] array
                ? Arrays.stream(array).map(String::valueOf).collect(Collectors.joining(","))
                : String.valueOf(value);
        return shown.equals("null") ? "" : "`" + shown + "`";
    }

    /** A description's lines as one paragraph, picocli's format escapes (%n, %%) undone. */
    private static String text(String[] lines) {
        return String.join(" ", lines).replace("%n", " ").replace("%%", "%").strip();
    }

    /** Text safe in a Markdown table cell: no column break, no HTML tag, no emphasis. */
    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace("*", "\\*");
    }

    /** The anchor GitHub gives the command's heading: lower case, spaces as dashes. */
    private static String anchor(CommandSpec command) {
        return command.qualifiedName().toLowerCase(java.util.Locale.ROOT).replace(' ', '-');
    }

    /** A server's ServerOptions.Defaults, read from its main class (the server modules are loadtest's test scope). */
    private static ServerOptions.Defaults defaults(String mainClass) {
        try {
            Field field = Class.forName(mainClass).getDeclaredField("DEFAULTS");
            if (!Modifier.isStatic(field.getModifiers())) {
                throw new IllegalStateException(mainClass + ".DEFAULTS is not static");
            }
            field.setAccessible(true);
            return (ServerOptions.Defaults) field.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + mainClass + ".DEFAULTS", e);
        }
    }
}
