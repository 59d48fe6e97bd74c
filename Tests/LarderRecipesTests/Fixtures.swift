/// Hand-written test recipes.
enum Fixtures {
    static let threeRecipes = """
    Three Quick Suppers

    Garlic Butter Pasta
    Serves 2
    Prep: 5 mins | Cook: 12 mins

    Ingredients
    200 g spaghetti
    3 tbsp butter
    4 cloves garlic, thinly sliced
    1/4 cup grated parmesan
    salt to taste

    Method
    1. Cook the spaghetti in salted boiling water for 10 minutes.
    2. Melt the butter in a pan, add the garlic and fry for 2 minutes.
    3. Toss the spaghetti with the garlic butter and parmesan. Season with salt.

    Cucumber Salad
    Serves 4 as a side

    Ingredients:
    1 large cucumber, thinly sliced
    2 tbsp rice vinegar
    1 tsp sugar
    1 tsp sesame seeds

    Directions:
    Whisk the vinegar and sugar until the sugar dissolves.

    Toss the cucumber with the dressing and chill for 30 minutes.

    Scatter over the sesame seeds to serve.

    Notes
    Best eaten the same day.

    Chocolate Mug Cake
    Makes 1 mug cake
    Ready in 5 minutes

    You will need…
    4 tbsp self-raising flour
    3 tbsp cocoa powder
    3 tbsp sugar
    1 egg
    3 tbsp milk
    2 tbsp vegetable oil

    Instructions
    Step 1: Mix the flour, cocoa and sugar in a large mug.
    Step 2: Beat in the egg, milk and oil until smooth.
    Step 3: Microwave on high for 1 1/2 minutes, until risen.
    """

    static let headerless = """
    Simple Flatbreads

    250 g plain flour
    1 tsp baking powder
    1/2 tsp salt
    150 g natural yogurt
    1 tbsp olive oil

    Mix the flour, baking powder and salt in a bowl, then stir in the yogurt and oil to make a soft dough.
    Knead for 1 minute on a floured surface, then divide into 4 balls and roll each out thinly.
    Cook in a hot dry frying pan for 2 minutes on each side until puffed and charred in places.
    """

    static let groupsAndHeaders = """
    CINNAMON BUNS

    Yield: 12 buns
    Prep time: 30 minutes
    Bake time: 25 minutes
    Total time: 2 hours 30 minutes

    INGREDIENTS:
    For the dough:
    500 g strong white flour
    7 g fast-action yeast
    250 ml warm milk
    50 g butter, melted
    For the filling:
    75 g soft butter
    2 tsp ground cinnamon
    100 g light brown sugar

    Preparation
    1) Mix the flour, yeast, milk and melted butter into a soft dough and knead for 10 minutes.
    2) Leave to rise for 1 hr 15 min, until doubled.
    3) Roll out, spread with the soft butter, sprinkle with the cinnamon and sugar, roll up and cut
       into 12 slices.
    4) Bake at 190°C fan or gas mark 5 for 20–25 minutes.

    Tips
    - The buns freeze well.
    - Use dark sugar for a deeper flavour.
    """

    static let markdown = """
    ---
    title: "Quick Guacamole"
    tags: ['mexican', 'dip']
    prep_time: PT10M
    ---

    Creamy, chunky and ready in minutes.

    - ⏲️ Prep time: 10 min
    - 🍽️ Servings: 4

    ## Ingredients

    - 2 ripe avocados
    - 1 lime, juiced
    - 1/4 red onion, finely chopped
    - salt to taste

    ## Directions

    1. Mash the avocados with the lime juice.
    2. Stir in the [onion](/onion) and season with salt.
    """

    /// Two recipes over two PDF pages: the first runs onto page 2 (mid-step); page numbers at the foot.
    static let pdfPages: [[(String, Double, Bool)]] = [
        [
            ("Spiced Lentil Soup", 20, true),
            ("Serves 6", 11, false),
            ("Prep: 15 mins | Cook: 40 mins", 11, false),
            ("A warming soup for cold evenings.", 11, false),
            ("Ingredients", 14, true),
            ("2 tbsp olive oil", 11, false),
            ("1 onion, chopped", 11, false),
            ("2 carrots, diced", 11, false),
            ("2 tsp ground cumin", 11, false),
            ("250 g red lentils", 11, false),
            ("1.2 litres vegetable stock", 11, false),
            ("Method", 14, true),
            ("1. Heat the oil in a large pan and cook the onion and carrots for 8 minutes until soft.", 11, false),
            ("2. Stir in the cumin and cook for 1 minute, then add the lentils and the", 11, false),
            ("12", 9, false),
        ],
        [
            ("stock. Bring to the boil and simmer for 25-30 minutes.", 11, false),
            ("3. Blend until smooth and season to taste.", 11, false),
            ("Herb Flatbreads", 20, true),
            ("Makes 8", 11, false),
            ("Ingredients", 14, true),
            ("300 g strong flour", 11, false),
            ("7 g fast-action yeast", 11, false),
            ("1 tsp salt", 11, false),
            ("200 ml warm water", 11, false),
            ("2 tbsp chopped parsley", 11, false),
            ("Method", 14, true),
            ("1. Mix everything into a dough and knead for 10 minutes.", 11, false),
            ("2. Leave to rise for 1 hour, then shape into 8 flat rounds.", 11, false),
            ("3. Cook in a hot pan for 2 minutes each side, or bake at gas mark 7.", 11, false),
            ("13", 9, false),
        ],
    ]
}
