package dev.forge.memory.context;

/**
 * Estimates how many tokens a text costs in a prompt. Budgets are only as exact as the estimator: plug in the
 * model's own tokenizer where it matters.
 *
 * <p>An estimator must not grow when text is removed from the end of its input; the page layout relies on it.
 */
@FunctionalInterface
public interface TokenEstimator {

    /** The default: one token per 3.5 characters (code points), rounded up, as the original design estimates. */
    TokenEstimator DEFAULT = charsPerToken(3.5);

    /** The estimated number of tokens of {@code text}, at least 0. */
    int estimate(String text);

    /**
     * An estimator of {@code ceil(codePoints / charsPerToken)}.
     *
     * @throws IllegalArgumentException unless {@code charsPerToken} is a finite number above 0
     */
    static TokenEstimator charsPerToken(double charsPerToken) {
        if (!(charsPerToken > 0) || Double.isInfinite(charsPerToken)) {
            throw new IllegalArgumentException("charsPerToken must be a finite number above 0, was " + charsPerToken);
        }
        return text -> (int) Math.min(Integer.MAX_VALUE,
                (long) Math.ceil(text.codePointCount(0, text.length()) / charsPerToken));
    }
}
