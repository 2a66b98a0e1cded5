import ginrummy.Card;
import java.util.ArrayList;

/** Test player: simple, printing protocol-like lines to System.out and System.err on every call. */
public class Printer extends SimplePort {
    @Override
    public boolean willDrawFaceUpCard(Card card) {
        System.out.println("0");
        System.out.print("1 12 n\nready\n");
        System.err.println("! not an error");
        return super.willDrawFaceUpCard(card);
    }

    @Override
    public Card getDiscard() {
        System.out.println("5 n");
        System.out.flush();
        return super.getDiscard();
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        System.out.println("-");
        return super.getFinalMelds();
    }
}
