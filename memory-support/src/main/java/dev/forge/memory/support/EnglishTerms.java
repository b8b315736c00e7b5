package dev.forge.memory.support;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.WordlistLoader;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.util.CharTokenizer;
import org.apache.lucene.util.IOUtils;

/**
 * The one text analysis of keyword search in forge-memory, built from Lucene's analysers: words are runs of letters
 * and digits (so {@code note:db} and {@code snake_case} are two words each, and search syntax in a query is plain
 * text), lower-cased, the Snowball project's English stop words removed, Porter-stemmed ({@code deploys} and
 * {@code deployed} share a stem). Text in other scripts keeps its words whole and lower-cased; the stemmer leaves
 * words it does not recognise as English as they are, the same on both sides of a match.
 *
 * <p>{@link KeywordScorer} ranks with it and the {@code vector} provider indexes with it, so the default providers
 * and the vector provider's keyword mode see the same terms.
 */
public final class EnglishTerms {

    /**
     * The Snowball project's English stop words (174, shipped with Lucene's analysis module), not Lucene's short
     * default list (33): questions put to a memory ("what did ... which ... how") would otherwise match every entry
     * holding "did" or "which".
     */
    private static final CharArraySet STOP_WORDS = snowballEnglishStopWords();

    private static final Analyzer WITH_STOP_WORDS = analyzer(STOP_WORDS);

    private static final Analyzer KEEPING_STOP_WORDS = analyzer(CharArraySet.EMPTY_SET);

    private EnglishTerms() {
    }

    /**
     * A new analyser of this analysis, for an index writer or query parser that owns and closes it. Lucene's analysers
     * are safe for concurrent use.
     */
    public static Analyzer analyzer() {
        return analyzer(STOP_WORDS);
    }

    /** Every analysed term of {@code text}, in order, repeats kept (what term frequencies count). */
    public static List<String> tokens(String text) {
        return tokens(WITH_STOP_WORDS, text);
    }

    /**
     * The analysed terms of {@code text} with stop words kept: for a query made only of stop words ("what is it"),
     * which would otherwise be no query at all, matched against documents analysed the same way.
     */
    public static List<String> tokensKeepingStopWords(String text) {
        return tokens(KEEPING_STOP_WORDS, text);
    }

    /**
     * {@code words} without the English stop words, for engines that analyse text themselves but keep stop words
     * (SQLite FTS5); {@code words} unchanged when nothing else would be left, so that a query of stop words only
     * ("what is it") still asks for something.
     */
    public static List<String> withoutStopWords(List<String> words) {
        List<String> kept = words.stream().filter(word -> !STOP_WORDS.contains(word)).toList();
        return kept.isEmpty() ? words : kept;
    }

    /** Every term {@code analyzer} makes of {@code text}, in order, repeats kept. */
    public static List<String> tokens(Analyzer analyzer, String text) {
        List<String> terms = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream("text", text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                terms.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            // a StringReader does not fail
            throw new UncheckedIOException(e);
        }
        return terms;
    }

    private static Analyzer analyzer(CharArraySet stopWords) {
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                Tokenizer tokenizer = CharTokenizer.fromTokenCharPredicate(Character::isLetterOrDigit);
                TokenStream stream = new LowerCaseFilter(tokenizer);
                if (!stopWords.isEmpty()) {
                    stream = new StopFilter(stream, stopWords);
                }
                stream = new PorterStemFilter(stream);
                return new TokenStreamComponents(tokenizer, stream);
            }

            @Override
            protected TokenStream normalize(String fieldName, TokenStream in) {
                return new LowerCaseFilter(in);
            }
        };
    }

    private static CharArraySet snowballEnglishStopWords() {
        try (Reader reader = IOUtils.getDecodingReader(SnowballFilter.class, "english_stop.txt", StandardCharsets.UTF_8)) {
            return CharArraySet.unmodifiableSet(WordlistLoader.getSnowballWordSet(reader));
        } catch (IOException e) {
            throw new UncheckedIOException("Lucene's english_stop.txt cannot be read from lucene-analysis-common", e);
        }
    }
}
