"""Saved web pages for samples/recipes. Usage: imported by scripts/data/make-samples.py (not run). Original text, written for Larder."""

SHAKSHUKA_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Weeknight Shakshuka | The Larder Test Kitchen</title>
<link rel="canonical" href="https://kitchen.larder.invalid/recipes/weeknight-shakshuka/">
<meta property="og:title" content="Weeknight Shakshuka | The Larder Test Kitchen">
<script type="application/ld+json">
{"@context": "https://schema.org", "@graph": [
  {"@type": "WebSite", "@id": "https://kitchen.larder.invalid/#site", "name": "The Larder Test Kitchen"},
  {"@type": "WebPage", "@id": "https://kitchen.larder.invalid/recipes/weeknight-shakshuka/#page",
   "name": "Weeknight Shakshuka | The Larder Test Kitchen"},
  {"@type": ["Recipe"], "@id": "https://kitchen.larder.invalid/recipes/weeknight-shakshuka/#recipe",
   "name": "Weeknight Shakshuka",
   "description": "Eggs poached in a peppery tomato sauce &amp;amp; finished with feta.",
   "author": {"@type": "Person", "name": "Larder Test Kitchen"},
   "image": ["https://kitchen.larder.invalid/img/shakshuka.jpg"],
   "recipeYield": ["4", "4 servings"],
   "prepTime": "PT10M", "cookTime": "PT25M", "totalTime": "P0DT0H35M",
   "recipeCategory": "Breakfast", "recipeCuisine": "Middle Eastern",
   "keywords": "eggs, tomatoes, one pan",
   "nutrition": {"@type": "NutritionInformation", "calories": "310 kcal", "proteinContent": "17 g",
                 "fatContent": "19 g", "carbohydrateContent": "18 g"},
   "recipeIngredient": ["2 tbsp olive oil", "1 onion, thinly sliced", "2 red peppers, sliced",
     "3 garlic cloves, crushed", "1 tsp ground cumin", "&amp;frac12; tsp chilli flakes",
     "2 x 400 g cans chopped tomatoes", "6 eggs", "75 g feta, crumbled", "small bunch of parsley, chopped"],
   "recipeInstructions": [
     {"@type": "HowToSection", "name": "Sauce", "itemListElement": [
       {"@type": "HowToStep", "text": "Heat the oil in a wide frying pan and cook the onion and peppers for 10 minutes until soft."},
       {"@type": "HowToStep", "text": "Stir in the garlic, cumin and chilli flakes for 1 minute, then add the tomatoes and simmer for 10 minutes."}]},
     {"@type": "HowToSection", "name": "Eggs", "itemListElement": [
       {"@type": "HowToStep", "text": "Make six hollows in the sauce and crack an egg into each. Cover and cook for 6&ndash;8 minutes until the whites are set."},
       {"@type": "HowToStep", "text": "Scatter over the feta and parsley and serve from the pan."}]}]}
]}
</script>
</head>
<body>
<header><nav><a href="/">Home</a> <a href="/recipes/">Recipes</a> <a href="/about/">About</a></nav></header>
<main>
<article>
<h1>Weeknight Shakshuka</h1>
<p>Eggs poached in a peppery tomato sauce &amp; finished with feta.</p>
<h2>Ingredients</h2>
<ul>
<li>2 tbsp olive oil</li><li>1 onion, thinly sliced</li><li>2 red peppers, sliced</li>
<li>3 garlic cloves, crushed</li><li>1 tsp ground cumin</li><li>&frac12; tsp chilli flakes</li>
<li>2 x 400 g cans chopped tomatoes</li><li>6 eggs</li><li>75 g feta, crumbled</li><li>small bunch of parsley, chopped</li>
</ul>
<h2>Method</h2>
<h3>Sauce</h3>
<ol>
<li>Heat the oil in a wide frying pan and cook the onion and peppers for 10 minutes until soft.</li>
<li>Stir in the garlic, cumin and chilli flakes for 1 minute, then add the tomatoes and simmer for 10 minutes.</li>
</ol>
<h3>Eggs</h3>
<ol>
<li>Make six hollows in the sauce and crack an egg into each. Cover and cook for 6&ndash;8 minutes until the whites are set.</li>
<li>Scatter over the feta and parsley and serve from the pan.</li>
</ol>
</article>
</main>
<aside><h2>You may also like</h2><ul><li>Baked eggs with spinach</li></ul></aside>
<footer><p>&copy; 2026 The Larder Test Kitchen</p></footer>
</body>
</html>
"""

OAT_COOKIES_HTML = """<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>Chewy Oat Cookies - Grandma's Notebook</title>
<meta property="og:url" content="https://notebook.larder.invalid/chewy-oat-cookies">
<style>.ad { display: block }</style>
<script>window.dataLayer = [{"recipe": "1 cup sugar"}];</script>
</head>
<body>
<div class="top-bar"><nav><ul><li><a href="/">Recipes</a></li><li><a href="/contact">Contact</a></li></ul></nav></div>
<div class="post">
<h1>Chewy Oat Cookies</h1>
<p class="byline">Posted in Baking</p>
<p>These keep for a week in a tin, if they last that long.</p>
<p>Makes 18 cookies</p>
<p>Prep time: 15 minutes<br>Bake time: 12 minutes</p>
<h3>Ingredients</h3>
<ul>
<li>115 g butter, soft</li>
<li>100 g light brown sugar</li>
<li>1 egg</li>
<li>1 tsp vanilla extract</li>
<li>120 g plain flour</li>
<li>&frac12; tsp baking soda</li>
<li>150 g rolled oats</li>
<li>75 g raisins (optional)</li>
</ul>
<div class="ad" style="display:none">Advertisement: 2 for 1 on cookie cutters</div>
<h3>Directions</h3>
<ol>
<li>Heat the oven to 180&deg;C and line two baking trays.</li>
<li>Beat the butter and sugar until pale, then beat in the egg and vanilla.</li>
<li>Stir in the flour, baking soda, oats and raisins.</li>
<li>Roll into 18 balls, flatten slightly and bake for 10&ndash;12 minutes. Cool on the tray.</li>
</ol>
<!-- <p>Old note: 2 cups of sugar</p> -->
</div>
<footer>Grandma's Notebook &middot; All rights reserved</footer>
</body>
</html>
"""

SAVED_PAGES = {
    "weeknight-shakshuka.html": SHAKSHUKA_HTML,
    "chewy-oat-cookies.html": OAT_COOKIES_HTML,
}
