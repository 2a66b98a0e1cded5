import ginrummy.Card;
import java.util.ArrayList;

/** Test player: simple, but it "knocks" (shows no melds) after every discard. */
public class AlwaysKnock extends SimplePort {
    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        return new ArrayList<>();
    }
}
